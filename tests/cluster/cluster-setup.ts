// The set-up the cluster test files share: a fresh database, an S3 server, PostgreSQL and Redis behind proxies an
// outage cuts, funded accounts, and the settings every server process of the run gets.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../../server/db';
import { startTestS3, type TestS3 } from '../../server/test-support/s3';
import type { TcpProxy } from '../../server/test-support/tcp-proxy';
import { createUser, type TestUser } from '../../server/test-support/tasks';
import { freshPostgresDatabase } from '../../server/db/test-support/engines';
import { startInstance } from './cluster.fixtures';
import { killAll, type Instance } from './server-processes';
import { clearRedisPrefix, PG_ADMIN_URL, REDIS_URL } from './services';
import { proxyTo } from './steady-load';

export const CLUSTER_SECRET = 'cluster-test-secret-cluster-test-secret-01';
/** Submits one account may have unfinished at once, and public API calls it may make a minute. */
export const [CLUSTER_CAP, CLUSTER_RATE_LIMIT] = [2, 15];
export const TERMINAL = ['succeeded', 'failed', 'canceled'];

export interface Cluster {
  database: AppDatabase;
  s3: TestS3;
  /** Every instance reaches PostgreSQL and Redis through these: an outage is a cut there, never a stopped service. */
  pgProxy: TcpProxy;
  redisProxy: TcpProxy;
  /** One account per balance given, in that order. */
  users: TestUser[];
  /** Starts a server process of `role` with the run's settings. */
  start(role: 'api' | 'worker'): Promise<Instance>;
  /** Tasks by status, for the message of a wait that timed out. */
  statusCounts(): Promise<string>;
  tasksNotTerminal(): Promise<number>;
  /** Kills every process and removes the database, bucket, Redis keys and folders. */
  close(): Promise<void>;
}

/** Builds one run's cluster (no process started yet); what was made is removed again if a later step fails. */
export async function startCluster(o: { name: string; balances: number[] }): Promise<Cluster> {
  const prefix = `${o.name}-${randomBytes(5).toString('hex')}:`;
  const instances: Instance[] = [];
  const undo: Array<() => Promise<void>> = [];
  const close = async () => {
    await killAll(instances);
    for (const step of undo.reverse()) await step().catch(() => undefined);
  };
  try {
    const siteDir = mkdtempSync(path.join(tmpdir(), `${o.name}-site-`));
    undo.push(async () => rmSync(siteDir, { recursive: true, force: true }));
    undo.push(() => clearRedisPrefix(prefix));
    const fresh = await freshPostgresDatabase(PG_ADMIN_URL, 'cluster');
    undo.push(fresh.drop);
    const s3 = await startTestS3(o.name);
    undo.push(() => s3.close());
    const database = await openDatabase(fresh.url);
    undo.push(() => database.close());
    await migrateToLatest(database);
    const [pgProxy, redisProxy] = await Promise.all([proxyTo(PG_ADMIN_URL, 5432), proxyTo(REDIS_URL, 6379)]);
    undo.push(
      () => pgProxy.close(),
      () => redisProxy.close(),
    );
    const env = {
      DATABASE_URL: pgProxy.url(fresh.url),
      QUEUE: 'pg-boss',
      QUEUE_LEASE_S: '10',
      QUEUE_CHECK_S: '1',
      QUEUE_RETRY_DELAY_S: '1',
      TASK_POLL_MS: '200',
      REDIS_URL: redisProxy.url(REDIS_URL),
      REDIS_PREFIX: prefix,
      ...s3.env(o.name),
      SECRET_KEY: CLUSTER_SECRET,
      SITE_DIR: siteDir,
      LOG_LEVEL: 'warn',
      ENGINES: 'tts-common=espeak',
      // Credits must move for drift to be checked: eSpeak runs are charged in full here (they are free by default).
      NO_MODEL_PRICE: 'full',
      RATE_LIMIT_PER_MINUTE: String(CLUSTER_RATE_LIMIT),
      TASK_USER_CONCURRENCY: String(CLUSTER_CAP),
      // Two tasks at once per worker, four on the engine cluster-wide: both workers stay busy, so a killed one dies
      // mid-task.
      TASK_WORKERS: '2',
      ENGINE_CONCURRENCY: 'espeak=4',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_MS: '200',
    };
    const config = loadConfig({ SECRET_KEY: CLUSTER_SECRET, DATABASE_URL: fresh.url, LOG_LEVEL: 'silent' });
    const users: TestUser[] = [];
    for (const balance of o.balances) users.push(await createUser({ database, config }, balance));
    const db = database.db;
    return {
      database,
      s3,
      pgProxy,
      redisProxy,
      users,
      start: (role) => startInstance(role, env, instances),
      statusCounts: async () =>
        JSON.stringify(
          await db
            .selectFrom('tasks')
            .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
            .groupBy('status')
            .execute(),
        ),
      tasksNotTerminal: async () =>
        (await db.selectFrom('tasks').select('id').where('status', 'not in', TERMINAL).execute()).length,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
