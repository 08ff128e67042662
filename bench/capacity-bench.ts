// Capacity bench (run by bench/capacity.mjs under tsx): 28 tasks/s through 2 API instances to 2 workers of the built
// server on pg-boss, a fixed-time fal stand-in as the engine; prints JSON rows.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { migrateToLatest, openDatabase } from '../server/db';
import { freshPostgresDatabase } from '../server/db/test-support/engines';
import { createUser, type TestUser } from '../server/test-support/tasks';
import { clearRedisPrefix, PG_ADMIN_URL, postgresProblem, REDIS_URL, redisProblem } from '../tests/cluster/services';
import { startCluster } from './capacity-cluster';
import { FIGURES_PATH, type FalFigures } from './capacity-fal';
import type { Services } from './capacity-services';
import { measure, type Column } from './capacity-measure';

/** CAPACITY_SECONDS shortens a trial run; the figures of record are the default 5 minutes. */
const SECONDS = Number(process.env.CAPACITY_SECONDS ?? 300);
/** 100k tasks an hour is 27.8 a second. */
const RATE = Number(process.env.CAPACITY_RATE ?? 28);
/**
 * The fal job's own time; the adapter polls at once and after 1 s (PROVIDER_RETRY), so it sees a 900 ms job done at 1
 * s.
 */
const JOB_MS = Number(process.env.CAPACITY_JOB_MS ?? 900);
/**
 * TASK_WORKERS of each worker: room for RATE × (engine time + the platform's part) running at once, with some to spare.
 */
const SLOTS = Number(process.env.CAPACITY_SLOTS ?? 24);
const ACCOUNTS = Number(process.env.CAPACITY_ACCOUNTS ?? 8);
/**
 * The baseline's length: one process with the in-process queue on SQLite, the same load and engine, after the cluster.
 */
const BASELINE_SECONDS = Number(process.env.CAPACITY_BASELINE_SECONDS ?? Math.min(60, SECONDS));
const SECRET = 'capacity-bench-secret-capacity-bench-secret';
type Row = Record<string, string | number>;

/** Accounts with credits enough for any run, in the database at `url` (migrated here first). */
async function accounts(url: string): Promise<TestUser[]> {
  const users: TestUser[] = [];
  const database = await openDatabase(url);
  try {
    await migrateToLatest(database);
    const config = loadConfig({ SECRET_KEY: SECRET, DATABASE_URL: url, LOG_LEVEL: 'silent' });
    for (let i = 0; i < ACCOUNTS; i++) users.push(await createUser({ database, config }, 1_000_000_000));
  } finally {
    // Closed before the load, so every connection counted on the database is a server's.
    await database.close();
  }
  return users;
}

/** The fal stand-in and the S3 server, started in a process of their own; resolves once they listen. */
async function startServices(): Promise<Services & { stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'capacity-services.ts'), String(JOB_MS)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const services = await new Promise<Services>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()) as Services));
    child.once('exit', (code) => reject(new Error(`the bench's services exited with ${code}`)));
  });
  const gone = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    child.kill('SIGTERM');
    await gone;
  };
  return { ...services, stop };
}

/** The baseline: the same load and engine through one process that does everything, on SQLite, with as many slots. */
async function inProcessBaseline(
  single: ReturnType<typeof startCluster>,
  common: Record<string, string>,
  scratch: string,
  falUrl: string,
): Promise<Column> {
  const sqliteUrl = `sqlite:${path.join(scratch, 'baseline.db')}`;
  const keys = (await accounts(sqliteUrl)).map((u) => u.apiKey);
  const one = await single.start('all', 'all-in-one', {
    ...common,
    DATABASE_URL: sqliteUrl,
    TASK_WORKERS: String(SLOTS * 2),
  });
  return measure({
    apis: [one],
    workers: [one],
    keys,
    databaseUrl: sqliteUrl,
    postgres: null,
    rate: RATE,
    seconds: BASELINE_SECONDS,
    falUrl,
  });
}

async function run(): Promise<Row[]> {
  const noPostgres = await postgresProblem();
  if (noPostgres) {
    console.error(`capacity bench skipped: ${noPostgres}`);
    return [{ figure: 'skipped', value: noPostgres }];
  }
  const prefix = `capacity-${randomBytes(5).toString('hex')}:`;
  // Redis when it answers (budgets shared across the API instances, as in production), else none.
  const withRedis = (await redisProblem()) === null;
  const scratch = mkdtempSync(path.join(tmpdir(), 'capacity-'));
  const services = await startServices();
  const { fal } = services;
  const cluster = startCluster();
  const single = startCluster();
  // Once, whether the run ends or a signal stops it first (both wait for the same clean-up).
  let cleaning: Promise<void> | undefined;
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      await cluster.stop();
      await single.stop();
      await database?.drop();
      await services.stop();
      if (withRedis) await clearRedisPrefix(prefix).catch(() => undefined);
      rmSync(scratch, { recursive: true, force: true });
    })());
  // Stopped from outside (a timeout, Ctrl-C): the processes, the database and the Redis keys go all the same.
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => void cleanUp().finally(() => process.exit(1)));
  try {
    database = await freshPostgresDatabase(PG_ADMIN_URL, 'capacity');
    const dbUrl = database.url;
    const common = {
      SECRET_KEY: SECRET,
      SITE_DIR: scratch,
      LOG_LEVEL: 'warn',
      ENGINES: 'image-generation=fal',
      FAL_KEY: fal.key,
      FAL_QUEUE_URL: fal.url,
      FAL_STORAGE_URL: fal.url,
      ENGINE_CONCURRENCY: `fal=${SLOTS * 2}`,
      // The per-account cap and rate limit are product rules, not capacity: set out of the way of the offered load.
      TASK_USER_CONCURRENCY: '100000',
      RATE_LIMIT_PER_MINUTE: '10000000',
    };
    const users = await accounts(dbUrl);
    const env = {
      ...common,
      DATABASE_URL: dbUrl,
      QUEUE: 'pg-boss',
      ...(withRedis ? { REDIS_URL, REDIS_PREFIX: prefix } : {}),
      ...services.s3,
      TASK_WORKERS: String(SLOTS),
    };
    const workers = [await cluster.start('worker', 'worker-1', env), await cluster.start('worker', 'worker-2', env)];
    const apis = [await cluster.start('api', 'api-1', env), await cluster.start('api', 'api-2', env)];
    const keys = users.map((u) => u.apiKey);
    const measured = await measure({
      apis,
      workers,
      keys,
      databaseUrl: dbUrl,
      postgres: { adminUrl: PG_ADMIN_URL, database: new URL(dbUrl).pathname.slice(1) },
      rate: RATE,
      seconds: SECONDS,
      falUrl: fal.url,
    });
    await cluster.stop();

    const baseline = BASELINE_SECONDS > 0 ? await inProcessBaseline(single, common, scratch, fal.url) : {};
    const clusterColumn = `2 api + 2 workers, pg-boss, ${SECONDS} s`;
    const baselineColumn = `baseline: 1 process, in-process queue, SQLite, ${BASELINE_SECONDS} s`;
    const rows: Row[] = Object.keys(measured).map((figure) => ({
      figure,
      [clusterColumn]: measured[figure]!,
      [baselineColumn]: baseline[figure] ?? '',
    }));
    rows.push({
      figure: 'setup',
      [clusterColumn]: `built server (dist-server), fresh PostgreSQL database${withRedis ? ', Redis' : ''}, S3 (s3rver); TASK_WORKERS=${SLOTS} per worker`,
      [baselineColumn]: `TASK_WORKERS=${SLOTS * 2}, media on local disk; both: ${RATE}/s from ${ACCOUNTS} accounts, image_generation on a fal stand-in whose jobs take ${JOB_MS} ms`,
    });
    const { refused } = (await (await fetch(`${fal.url}${FIGURES_PATH}`)).json()) as FalFigures;
    if (refused > 0)
      rows.push({
        figure: 'fal stand-in refusals (requests outside its protocol; should be 0)',
        [clusterColumn]: String(refused),
      });
    return rows;
  } finally {
    await cleanUp();
  }
}

process.stdout.write(`${JSON.stringify(await run())}\n`);
