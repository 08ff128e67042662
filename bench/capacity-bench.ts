// Capacity bench (run by bench/capacity.mjs under tsx): 28 tasks/s through 2 API instances to 2 workers of the built server on pg-boss, a fixed-time fal stand-in as the engine; prints JSON rows.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig } from '../server/config';
import { migrateToLatest, openDatabase } from '../server/db';
import { startTestS3 } from '../server/test-support/s3';
import { createUser, type TestUser } from '../server/test-support/tasks';
import { startCluster } from './capacity-cluster';
import { startFixedTimeFal } from './capacity-fal';
import { cpuSeconds, startMaxEnd, startSampler } from './capacity-sampler';
import { offerLoad, taskFigures } from './capacity-load';

/** CAPACITY_SECONDS shortens a trial run; the figures of record are the default 5 minutes. */
const SECONDS = Number(process.env.CAPACITY_SECONDS ?? 300);
/** 100k tasks an hour is 27.8 a second. */
const RATE = Number(process.env.CAPACITY_RATE ?? 28);
/** The fal job's own time; the adapter polls at once and after 1 s (PROVIDER_RETRY), so it sees a 900 ms job done at 1 s. */
const JOB_MS = Number(process.env.CAPACITY_JOB_MS ?? 900);
/** TASK_WORKERS of each worker: room for RATE × (engine time + the platform's part) running at once, with some to spare. */
const SLOTS = Number(process.env.CAPACITY_SLOTS ?? 24);
const ACCOUNTS = Number(process.env.CAPACITY_ACCOUNTS ?? 8);
/** How long the tasks accepted may take to end after the load stops before the bench gives up on them. */
const DRAIN_LIMIT_MS = 120_000;
const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const SECRET = 'capacity-bench-secret-capacity-bench-secret';
type Row = Record<string, string | number>;

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Redis when it answers (budgets shared across the API instances, as in production), else none. */
async function redisAnswers(): Promise<boolean> {
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

async function clearRedis(prefix: string) {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

const ms = (n: number) => Math.round(n);
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
};

async function run(): Promise<Row[]> {
  try {
    await admin('select 1');
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    console.error(`capacity bench skipped: PostgreSQL at ${adminUrl} does not answer (${why})`);
    return [{ figure: 'skipped', value: `PostgreSQL does not answer (${why})` }];
  }
  const name = `capacity_${randomBytes(5).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dbUrl = url.toString();
  const prefix = `capacity-${randomBytes(5).toString('hex')}:`;
  const withRedis = await redisAnswers();
  const siteDir = mkdtempSync(path.join(tmpdir(), 'capacity-site-'));
  const fal = await startFixedTimeFal(JOB_MS);
  const s3 = await startTestS3();
  const cluster = startCluster();
  await admin(`create database ${name}`);
  try {
    const users: TestUser[] = [];
    const database = await openDatabase(dbUrl);
    await migrateToLatest(database);
    const config = loadConfig({ SECRET_KEY: SECRET, DATABASE_URL: dbUrl, LOG_LEVEL: 'silent' });
    for (let i = 0; i < ACCOUNTS; i++) users.push(await createUser({ database, config }, 1_000_000_000));
    // Closed before the load, so every connection counted on this database is a server's.
    await database.close();
    const env = {
      DATABASE_URL: dbUrl,
      QUEUE: 'pg-boss',
      ...(withRedis ? { REDIS_URL: redisUrl, REDIS_PREFIX: prefix } : {}),
      ...s3.env('capacity'),
      SECRET_KEY: SECRET,
      SITE_DIR: siteDir,
      LOG_LEVEL: 'warn',
      ENGINES: 'image-generation=fal',
      FAL_KEY: fal.key,
      FAL_QUEUE_URL: fal.url,
      FAL_STORAGE_URL: fal.url,
      TASK_WORKERS: String(SLOTS),
      ENGINE_CONCURRENCY: `fal=${SLOTS * 2}`,
      // The per-account cap and rate limit are product rules, not capacity: set out of the way of the offered load.
      TASK_USER_CONCURRENCY: '100000',
      RATE_LIMIT_PER_MINUTE: '10000000',
    };
    const workers = [await cluster.start('worker', 'worker-1', env), await cluster.start('worker', 'worker-2', env)];
    const apis = [await cluster.start('api', 'api-1', env), await cluster.start('api', 'api-2', env)];
    const all = [...apis, ...workers];
    const sampler = await startSampler(adminUrl, name, Object.fromEntries(all.map((i) => [i.name, i.pid])));
    const cpuBefore = await Promise.all(all.map((i) => cpuSeconds(i.pid)));
    const load = await offerLoad({ rate: RATE, seconds: SECONDS, apis: apis.map((a) => a.url), keys: users.map((u) => u.apiKey) });
    const reader = await openDatabase(dbUrl, { maxConnections: 1 });
    const tasks = await taskFigures(reader, load, DRAIN_LIMIT_MS);
    await reader.close();
    const cpu = (await Promise.all(all.map((i) => cpuSeconds(i.pid)))).map((after, n) => after - cpuBefore[n]!);
    const sampled = await sampler.stop();
    const perTask = (seconds: number) => ((seconds * 1000) / Math.max(1, tasks.succeeded)).toFixed(1);
    const connections = sampled.connections;
    const rows: Row[] = [
      { figure: 'rate offered (submits/s)', value: load.offeredPerS.toFixed(1), baseline: `${RATE}/s asked (100k an hour = 27.8/s)` },
      { figure: 'submits accepted (200) per s', value: (load.accepted.length / SECONDS).toFixed(1), baseline: '' },
      { figure: 'tasks started per s (load window)', value: tasks.startedPerS.toFixed(1), baseline: '' },
      { figure: 'tasks finished per s (load window)', value: tasks.finishedPerS.toFixed(1), baseline: '' },
      {
        figure: 'submit → start p50 / p99 ms',
        value: `${ms(pct(tasks.toStart, 50))} / ${ms(pct(tasks.toStart, 99))}`,
        baseline: 'tasks.created_at → started_at',
      },
      {
        figure: 'submit → finish p50 / p99 ms',
        value: `${ms(pct(tasks.toFinish, 50))} / ${ms(pct(tasks.toFinish, 99))}`,
        baseline: `engine alone ${ms(pct(fal.engineMs, 50))} / ${ms(pct(fal.engineMs, 99))} (fal stand-in: submit received → image fetched)`,
      },
      {
        figure: 'HTTP submit answer p50 / p99 ms',
        value: `${ms(pct(load.answerMs, 50))} / ${ms(pct(load.answerMs, 99))}`,
        baseline: `most in flight at once: ${load.maxInFlight}`,
      },
      { figure: 'tasks succeeded / failed / not ended', value: `${tasks.succeeded} / ${tasks.failed} / ${tasks.open}`, baseline: tasks.firstError },
      { figure: 'drain after the load stopped (s)', value: (tasks.drainMs / 1000).toFixed(1), baseline: 'last task finished − last submit' },
      {
        figure: '5xx answers / other refusals / network errors',
        value: `${load.serverErrors} / ${load.refused} / ${load.networkErrors}`,
        baseline: load.firstRefusal,
      },
      {
        figure: 'PostgreSQL connections max / mean',
        value: `${Math.max(...connections)} / ${Math.round(connections.reduce((a, b) => a + b, 0) / connections.length)}`,
        baseline: 'pg_stat_activity on the bench database, sampled each second',
      },
      ...Object.entries(sampled.rss).map(([process, series]) => ({ figure: `RSS ${process} MB start / max / end`, value: startMaxEnd(series), baseline: '' })),
      {
        figure: 'server CPU ms per task: api / worker',
        value: `${perTask(cpu[0]! + cpu[1]!)} / ${perTask(cpu[2]! + cpu[3]!)}`,
        baseline: 'both processes of each role, /proc/<pid>/stat over the load and drain (PostgreSQL not counted)',
      },
      {
        figure: 'machine load average (1 min) mean / max',
        value: `${(sampled.load.reduce((a, b) => a + b, 0) / sampled.load.length).toFixed(1)} / ${Math.max(...sampled.load).toFixed(1)}`,
        baseline: `${cpus().length} cores, shared with whatever else runs; stderr lines of the servers: ${all.map((i) => i.stderrLines()).join(' / ')}`,
      },
      {
        figure: 'setup',
        value: `2 api + 2 worker processes of the built server, QUEUE=pg-boss on a fresh PostgreSQL database${withRedis ? ', Redis' : ''}, S3 (s3rver)`,
        baseline: `${SECONDS} s at ${RATE}/s from ${ACCOUNTS} accounts; image_generation on a fal stand-in whose jobs take ${JOB_MS} ms; TASK_WORKERS=${SLOTS} per worker`,
      },
    ];
    if (fal.refused > 0) rows.push({ figure: 'fal stand-in refusals', value: fal.refused, baseline: 'requests outside the protocol (should be 0)' });
    return rows;
  } finally {
    await cluster.stop();
    await admin(`drop database if exists ${name} with (force)`);
    await fal.close();
    await s3.close();
    if (withRedis) await clearRedis(prefix).catch(() => undefined);
    rmSync(siteDir, { recursive: true, force: true });
  }
}

process.stdout.write(`${JSON.stringify(await run())}\n`);
