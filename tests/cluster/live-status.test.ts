// Live status across real processes on one PostgreSQL: submitted through one api instance, streamed from another, also
// after its listener was cut.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../../server/db';
import { collect, type OpenedStream } from '../../server/test-support/sse.fixtures';
import { createUser, type TestUser } from '../../server/test-support/tasks';
import { createDreamApiClient } from '../../src/lib/sdk/index';
import { LIVE_STATUS } from '../../src/lib/product-rules';
import { freshPostgresDatabase } from '../../server/db/test-support/engines';
import { call, missingServices, startInstance, waitFor } from './cluster.fixtures';
import { killAll, type Instance } from './server-processes';
import { clearRedisPrefix, PG_ADMIN_URL, REDIS_URL } from './services';

const skipReason = await missingServices();
if (skipReason) console.warn(`live status cluster test skipped: ${skipReason}`);

const SECRET = 'live-status-cluster-secret-live-status-01';
const FEED_SESSION = 'dreamapi-status-feed';
type View = { task: { taskId: string; statusName: string; progress: number } };
const viewOf = (data: string) => JSON.parse(data) as View;
const finished = (s: OpenedStream, taskId: string) =>
  s.events.some((e) => viewOf(e.data).task.taskId === taskId && viewOf(e.data).task.statusName === 'succeeded');

describe.skipIf(skipReason !== null).each([
  { transport: 'PostgreSQL NOTIFY', redis: false },
  { transport: 'Redis pub/sub', redis: true },
])('live status across api instances over $transport', { timeout: 120_000 }, ({ redis }) => {
  const prefix = `live-${randomBytes(5).toString('hex')}:`;
  const siteDir = mkdtempSync(path.join(tmpdir(), 'live-site-'));
  const instances: Instance[] = [];
  let database: AppDatabase | undefined;
  let drop: (() => Promise<void>) | undefined;
  let dbName = '';
  const api: Instance[] = [];
  let user: TestUser;
  const streams: OpenedStream[] = [];

  beforeAll(async () => {
    const fresh = await freshPostgresDatabase(PG_ADMIN_URL, 'cluster');
    drop = fresh.drop;
    dbName = new URL(fresh.url).pathname.slice(1);
    database = await openDatabase(fresh.url);
    await migrateToLatest(database);
    const env = {
      DATABASE_URL: fresh.url,
      QUEUE: 'pg-boss',
      QUEUE_CHECK_S: '1',
      TASK_POLL_MS: '200',
      ...(redis ? { REDIS_URL, REDIS_PREFIX: prefix } : {}),
      SECRET_KEY: SECRET,
      SITE_DIR: siteDir,
      LOG_LEVEL: 'warn',
      ENGINES: 'tts-common=espeak',
    };
    user = await createUser(
      { database, config: loadConfig({ SECRET_KEY: SECRET, DATABASE_URL: fresh.url, LOG_LEVEL: 'silent' }) },
      100,
    );
    // One at a time: each start compiles the server, and a busy machine takes the fixture's minute over three at once.
    for (const role of ['api', 'api', 'worker'] as const) {
      const started = await startInstance(role, env, instances);
      if (role === 'api') api.push(started);
    }
  }, 240_000);

  afterAll(async () => {
    for (const s of streams) s.close();
    await killAll(instances);
    await database?.close();
    await drop?.();
    if (redis) await clearRedisPrefix(prefix).catch(() => undefined);
    rmSync(siteDir, { recursive: true, force: true });
  });

  async function accountStream(on: Instance) {
    const s = collect(
      await fetch(`${on.url}${LIVE_STATUS.publicPath}`, { headers: { authorization: `Bearer ${user.apiKey}` } }),
    );
    streams.push(s);
    expect(s.status).toBe(200);
    return s;
  }
  const submit = async (on: Instance, text: string) => {
    const answer = await call(on.url, user.apiKey, '/async/do_tts_common', { text, lan: 'en-US' });
    expect(answer.code, answer.message).toBe(0);
    return answer.data!.taskId as string;
  };

  /** Cuts the listener's connection of every api instance (the feed's PostgreSQL session, or its Redis subscriber). */
  async function cutListeners(): Promise<number> {
    if (!redis) {
      const cut = await sql<{ n: number }>`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = ${dbName} and application_name = ${FEED_SESSION}`.execute(database!.db);
      return cut.rows[0]!.n;
    }
    const admin = new Redis(REDIS_URL);
    try {
      const clients = String(await admin.client('LIST'))
        .split('\n')
        .filter((line) => line.includes(`name=${FEED_SESSION} `));
      for (const line of clients) await admin.client('KILL', 'ID', /\bid=(\d+)/.exec(line)![1]!);
      return clients.length;
    } finally {
      admin.disconnect();
    }
  }

  it('a task submitted through one instance is streamed, to its final status, from the other', async () => {
    const s = await accountStream(api[1]!);
    const taskId = await submit(api[0]!, 'Streamed across instances.');
    await s.until(() => finished(s, taskId), 60_000);
    const mine = s.events.filter((e) => viewOf(e.data).task.taskId === taskId);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(new Set(mine.map((e) => e.id)).size).toBe(mine.length);
  });

  it('after the listener connection is cut, the stream still gets the next task (reconnect and re-read), and the SDK waits through it', async () => {
    const s = await accountStream(api[1]!);
    await waitFor(async () => (await cutListeners()) > 0, 20_000, 'a listener connection to cut');
    const taskId = await submit(api[0]!, 'After the cut.');
    await s.until(() => finished(s, taskId), 60_000);
    const client = createDreamApiClient({ apiKey: user.apiKey, baseUrl: api[1]!.url });
    const next = await submit(api[0]!, 'Waited for by the SDK.');
    expect((await client.wait(next, { timeoutMs: 60_000 })).task.statusName).toBe('succeeded');
  });
});
