// Every role through PgBouncer in transaction mode: migrations started at once, a submit, a pg-boss job to completion,
// a cancel, the engine slots.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { migrateToLatest, migrations, openDatabase, type AppDatabase } from '.';
import type { Engine } from '../engines';
import { createLogger } from '../log';
import { createTaskSystem, type TaskSystem } from '../tasks';
import { leasedEngineSlots } from '../tasks/engine-slots';
import { freshPostgresDatabase } from './test-support/engines';
import { postgresSkipReason } from '../test-support/instances';
import { pgbouncerSkipReason, startPgBouncer, type PgBouncer } from '../test-support/pgbouncer';
import { createUser, TASKS_TEST_SECRET, testEngine, waitForTask } from '../test-support/tasks';

const adminUrl = process.env.TEST_DATABASE_URL;
const skipReason = (await postgresSkipReason(adminUrl)) ?? pgbouncerSkipReason();
if (skipReason) console.warn(`PgBouncer tests skipped: ${skipReason}`);

/** Server connections PgBouncer may open to the database, for every pool of every instance together. */
const SERVER_POOL = 8;
/** Marks the sessions opened through DATABASE_DIRECT_URL, so the test can tell them from the pooled ones. */
const DIRECT_APP = 'direct_listen';

const dir = mkdtempSync(path.join(tmpdir(), 'pgbouncer-test-'));
let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
let bouncer: PgBouncer | undefined;
const open: { system?: TaskSystem; database: AppDatabase }[] = [];

async function closeAll() {
  for (const { system, database } of open.splice(0).reverse()) {
    await system?.stop();
    await database.close();
  }
}

/**
 * A database handle as main.ts opens it for that role: through PgBouncer, its pool sized by DATABASE_POOL_MAX's
 * default.
 */
async function instance(role: 'api' | 'worker', engine: Engine) {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dir,
    SECRET_KEY: TASKS_TEST_SECRET,
    PUBLIC_URL: 'http://localhost:8787',
    ROLE: role,
    DATABASE_URL: bouncer!.url,
    DATABASE_DIRECT_URL: `${fresh!.url}?application_name=${DIRECT_APP}`,
    QUEUE: 'pg-boss',
    QUEUE_LEASE_S: '10',
    QUEUE_CHECK_S: '1',
    QUEUE_RETRY_DELAY_S: '1',
    TASK_POLL_MS: '500',
    TASK_WORKERS: '4',
    ENGINES: 'tts-common=test',
    ENGINE_CONCURRENCY: 'test=2',
  });
  const database = await openDatabase(config.databaseUrl, { maxConnections: config.database.poolMax });
  const system = createTaskSystem({ config, database, log: createLogger('silent'), extraEngines: [engine] });
  open.push({ system, database });
  await system.start();
  return { system, database, config };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Server sessions on the test database, by whether they came through DATABASE_DIRECT_URL; read without the pooler. */
async function serverSessions(): Promise<{ pooled: number; direct: number; directListening: number }> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ direct: boolean; listening: boolean; n: number }>(
      `select application_name = $2 as direct, query ilike 'listen%' as listening, count(*)::int as n
       from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() group by 1, 2`,
      [new URL(fresh!.url).pathname.slice(1), DIRECT_APP],
    );
    const sum = (f: (r: (typeof rows)[number]) => boolean) => rows.filter(f).reduce((n, r) => n + r.n, 0);
    return {
      pooled: sum((r) => !r.direct),
      direct: sum((r) => r.direct),
      directListening: sum((r) => r.direct && r.listening),
    };
  } finally {
    await admin.end();
  }
}

/** PgBouncer's own count of client connections and server connections for the test database. */
async function poolFigures(): Promise<{ clients: number; servers: number }> {
  const console_ = new pg.Client({ connectionString: bouncer!.adminUrl });
  await console_.connect();
  try {
    const { rows } = await console_.query<Record<string, string>>('SHOW POOLS');
    const row = rows.find((r) => r.database === new URL(fresh!.url).pathname.slice(1));
    const n = (key: string) => Number(row?.[key] ?? 0);
    return {
      clients: n('cl_active') + n('cl_waiting'),
      servers: n('sv_active') + n('sv_idle') + n('sv_used') + n('sv_tested') + n('sv_login'),
    };
  } finally {
    await console_.end();
  }
}

describe.skipIf(skipReason !== null)('the product through PgBouncer in transaction mode', () => {
  beforeAll(async () => {
    fresh = await freshPostgresDatabase(adminUrl!, 'bouncer');
    bouncer = await startPgBouncer(fresh.url, SERVER_POOL);
  }, 30_000);
  afterAll(async () => {
    await closeAll();
    await bouncer?.stop();
    await fresh?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrates once when two servers start at the same time (the migration lock is transaction-scoped)', async () => {
    const [a, b] = [await openDatabase(bouncer!.url), await openDatabase(bouncer!.url)];
    open.push({ database: a }, { database: b });
    const results = await Promise.all([migrateToLatest(a), migrateToLatest(b)]);
    expect(results.map((r) => r.version)).toEqual([migrations.length, migrations.length]);
    expect(results.flatMap((r) => r.applied).sort()).toEqual(migrations.map((m) => m.name).sort());
    await closeAll();
  }, 60_000);

  it('submits on an api instance, runs the job to completion and stops a canceled one on a worker, LISTEN on the direct URL', async () => {
    let abortedOnWorker = false;
    let holding = 0;
    const quick = testEngine();
    // A task whose text asks for it waits until it is canceled; any other finishes at once.
    const engine: Engine = {
      ...quick,
      run(feature, input, ctx) {
        if (!JSON.stringify(input).includes('wait for cancel')) return quick.run(feature, input, ctx);
        holding++;
        return new Promise((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => {
            abortedOnWorker = true;
            reject(new Error('aborted'));
          }),
        );
      },
    };
    const api = await instance('api', engine);
    const worker = await instance('worker', engine);
    const user = await createUser(api, 100);
    const voice = 'en-us-male-1';

    const { task } = await api.system.tasks.submit({
      userId: user.id,
      feature: 'tts-common',
      input: { text: 'through the pooler', voice },
      source: 'api',
    });
    const done = await waitForTask(api, task.id, 30_000);
    expect(done.status).toBe('succeeded');

    const { task: long } = await api.system.tasks.submit({
      userId: user.id,
      feature: 'tts-common',
      input: { text: 'wait for cancel', voice },
      source: 'api',
    });
    await until(() => holding === 1, 30_000, 'the engine starting on the worker');
    // The running attempt holds a leased slot row, renewed by statements, not a pinned session.
    const slots = await sql<{ n: number }>`select count(*)::int as n from engine_slots where engine = 'test'`.execute(
      worker.database.db,
    );
    expect(slots.rows[0]!.n).toBe(1);
    await api.system.tasks.cancel(user.id, long.id);
    api.system.queue.abort(long.id);
    await until(() => abortedOnWorker, 15_000, 'the engine on the worker being aborted');
    expect((await waitForTask(api, long.id)).status).toBe('canceled');

    const sessions = await serverSessions();
    const pool = await poolFigures();
    console.log(
      `[pgbouncer] api + worker: ${pool.clients} client connections to PgBouncer, ${sessions.pooled} server connections behind it (pool ${SERVER_POOL}), ` +
        `${sessions.direct} direct sessions for LISTEN`,
    );
    // Only the worker listens (its cancel listener and pg-boss's wake-up), and both went to DATABASE_DIRECT_URL.
    expect(sessions.direct).toBe(2);
    expect(sessions.directListening).toBeGreaterThanOrEqual(1);
    expect(sessions.pooled).toBeLessThanOrEqual(SERVER_POOL);
    await closeAll();
    await until(
      async () =>
        (await sql<{ n: number }>`select count(*)::int as n from engine_slots`.execute(await scratch())).rows[0]!.n ===
        0,
      5000,
      'slots released',
    );
  }, 90_000);

  it('caps an engine across two slot sets through the pooler and frees a released slot for the waiter', async () => {
    const db = await scratch();
    const [a, b] = [leasedEngineSlots({ db, pollMs: 20 }), leasedEngineSlots({ db, pollMs: 20 })];
    try {
      const first = await a.acquire('pooled', 2, AbortSignal.timeout(5000));
      await b.acquire('pooled', 2, AbortSignal.timeout(5000));
      await expect(b.acquire('pooled', 2, AbortSignal.timeout(500))).rejects.toThrow();
      const waiter = b.acquire('pooled', 2, AbortSignal.timeout(10_000));
      first();
      (await waiter)();
    } finally {
      await a.close();
      await b.close();
    }
  }, 30_000);
});

/** One more handle through PgBouncer, closed with the others. */
async function scratch() {
  const database = await openDatabase(bouncer!.url, { maxConnections: 2 });
  open.push({ database });
  return database.db;
}
