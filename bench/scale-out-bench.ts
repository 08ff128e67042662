// Scale-out benchmark (run by bench/scale-out.mjs under tsx): tasks/s through 1 and 2 workers and submit → start
// latency, pg-boss on PostgreSQL next to the in-process queue on SQLite; prints JSON rows.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../server/app';
import { loadConfig } from '../server/config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../server/db';
import { freshPostgresDatabase } from '../server/db/test-support/engines';
import { createLogger } from '../server/log';
import { createTaskSystem, type TaskSystem } from '../server/tasks';
import { createUser, TASKS_TEST_SECRET, testEngine, type TestUser } from '../server/test-support/tasks';
import { PG_ADMIN_URL, postgresProblem } from '../tests/cluster/services';

/**
 * A fixed-time engine (a provider call that waits, not a CPU-bound one), so the figures measure the queue and the
 * worker count.
 */
const ENGINE_DELAY_MS = 100;
/** Job slots per worker process (the TASK_WORKERS default): one worker runs at most 2 / 0.1 s = 20 tasks/s. */
const SLOTS = 2;
const TASKS = 120;
const LATENCY_TASKS = 100;
/**
 * Latency is measured below capacity (one submit every 40 ms, 25/s offered to 40/s of workers), so it is the queue's
 * delay, not a backlog.
 */
const LATENCY_GAP_MS = 40;
const root = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'scale-out-bench-'));
const log = createLogger('silent');
const baseEnv = {
  LOG_LEVEL: 'silent',
  DATA_DIR: dir,
  SECRET_KEY: TASKS_TEST_SECRET,
  ENGINES: 'tts-common=test',
  // Caps off: the engine cap (2 across all workers on pg-boss) would hide the second worker.
  ENGINE_CONCURRENCY: 'test=1000',
  TASK_USER_CONCURRENCY: '100000',
  RATE_LIMIT_PER_MINUTE: '10000000',
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

interface Api {
  app: ReturnType<typeof createApp>;
  database: AppDatabase;
  user: TestUser;
}

/** Submits `count` tasks over the public API, 10 in flight; answers their ids and the accepted rate. */
async function submitBatch(api: Api, count: number): Promise<{ ids: string[]; perS: number }> {
  const ids: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < count) {
        next++;
        const res = await api.app.request('/api/async/do_tts_common', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${api.user.apiKey}` },
          body: JSON.stringify({ text: 'scale-out bench' }),
        });
        if (res.status !== 200) throw new Error(`submit failed: ${res.status} ${await res.text()}`);
        ids.push(((await res.json()) as { data: { taskId: string } }).data.taskId);
      }
    }),
  );
  return { ids, perS: count / ((performance.now() - started) / 1000) };
}

async function finished(database: AppDatabase, ids: string[], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await database.db
      .selectFrom('tasks')
      .select(['status', 'created_at', 'started_at', 'finished_at'])
      .where('id', 'in', ids)
      .execute();
    const open = rows.filter((r) => !['succeeded', 'failed', 'canceled'].includes(r.status));
    if (rows.length === ids.length && open.length === 0) {
      if (rows.some((r) => r.status !== 'succeeded')) throw new Error('a benchmark task did not succeed');
      return rows;
    }
    if (Date.now() > deadline) throw new Error(`${open.length} benchmark tasks still open after ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Tasks per second on the tasks' own timestamps: first start to last finish, so process start-up is not counted. */
async function throughput(api: Api): Promise<{ tasksPerS: number; submitPerS: number }> {
  const { ids, perS } = await submitBatch(api, TASKS);
  const rows = await finished(api.database, ids);
  const first = Math.min(...rows.map((r) => r.started_at!));
  const last = Math.max(...rows.map((r) => r.finished_at!));
  return { tasksPerS: TASKS / ((last - first) / 1000), submitPerS: perS };
}

/** Submit → start (created_at → started_at) for tasks arriving one every LATENCY_GAP_MS. */
async function latency(api: Api): Promise<{ p50: number; p99: number }> {
  const ids: string[] = [];
  for (let i = 0; i < LATENCY_TASKS; i++) {
    ids.push(...(await submitBatch(api, 1)).ids);
    await sleep(LATENCY_GAP_MS);
  }
  const waits = (await finished(api.database, ids)).map((r) => r.started_at! - r.created_at).sort((a, b) => a - b);
  return { p50: pct(waits, 50), p99: pct(waits, 99) };
}

/** The in-process queue on a SQLite file: one process (ROLE=all), its slots doubled for the "2 workers" column. */
async function sqliteRow() {
  const config = (workers: number) => loadConfig({ ...baseEnv, TASK_WORKERS: String(workers) });
  const database = await openDatabase(config(SLOTS).databaseUrl);
  await migrateToLatest(database);
  const figures: Record<string, number> = {};
  let user: TestUser | undefined;
  let latencies = { p50: 0, p99: 0 };
  let submitPerS = 0;
  for (const workers of [1, 2]) {
    const c = config(SLOTS * workers);
    const system: TaskSystem = createTaskSystem({
      config: c,
      database,
      log,
      extraEngines: [testEngine({ delayMs: ENGINE_DELAY_MS })],
    });
    const app = createApp({ config: c, database, log, tasks: system });
    user ??= await createUser({ database, config: c }, 10_000_000);
    await system.start();
    const api = { app, database, user };
    const run = await throughput(api);
    figures[workers] = run.tasksPerS;
    if (workers === 1) submitPerS = run.submitPerS;
    if (workers === 2) latencies = await latency(api);
    await system.stop();
  }
  await database.close();
  return {
    setup: 'in-process queue, SQLite (one process; 2 workers = TASK_WORKERS doubled)',
    '1 worker tasks/s': Math.round(figures[1]!),
    '2 workers tasks/s': Math.round(figures[2]!),
    'submit→start p50 ms': latencies.p50,
    'submit→start p99 ms': latencies.p99,
    'API submits/s (10 in flight, workers running)': Math.round(submitPerS),
  };
}

/** A ROLE=worker process on the queue, with the fixed-time engine; resolves when it is working. */
function startWorker(dbUrl: string, children: ChildProcess[]): Promise<void> {
  const env = {
    ...process.env,
    ...baseEnv,
    QUEUE: 'pg-boss',
    DATABASE_URL: dbUrl,
    ROLE: 'worker',
    TASK_WORKERS: String(SLOTS),
    TEST_ENGINE_DELAY_MS: String(ENGINE_DELAY_MS),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/test-support/task-worker.ts')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
  });
}

/** pg-boss on a fresh PostgreSQL database: this process is the ROLE=api instance, workers are separate processes. */
async function postgresRow(): Promise<Record<string, string | number>> {
  const setup = 'pg-boss queue, PostgreSQL (ROLE=api here, ROLE=worker processes)';
  const problem = await postgresProblem();
  if (problem) {
    console.error(`scale-out bench: pg-boss rows skipped, ${problem}`);
    return { setup, skipped: problem };
  }
  const fresh = await freshPostgresDatabase(PG_ADMIN_URL, 'scale_bench');
  const dbUrl = fresh.url;
  const children: ChildProcess[] = [];
  try {
    const config = loadConfig({ ...baseEnv, DATABASE_URL: dbUrl, QUEUE: 'pg-boss', ROLE: 'api' });
    const database = await openDatabase(dbUrl);
    await migrateToLatest(database);
    // The api instance never runs the engine, but its routing needs the name to exist.
    const system = createTaskSystem({ config, database, log, extraEngines: [testEngine()] });
    const app = createApp({ config, database, log, tasks: system });
    await system.start();
    const api = { app, database, user: await createUser({ database, config }, 10_000_000) };
    await startWorker(dbUrl, children);
    const one = await throughput(api);
    await startWorker(dbUrl, children);
    const two = await throughput(api);
    const latencies = await latency(api);
    await system.stop();
    await database.close();
    return {
      setup,
      '1 worker tasks/s': Math.round(one.tasksPerS),
      '2 workers tasks/s': Math.round(two.tasksPerS),
      'submit→start p50 ms': latencies.p50,
      'submit→start p99 ms': latencies.p99,
      'API submits/s (10 in flight, workers running)': Math.round(one.submitPerS),
    };
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await fresh.drop();
  }
}

try {
  const rows: Array<Record<string, string | number>> = [await postgresRow(), await sqliteRow()];
  rows.push({
    setup:
      `engine: fixed ${ENGINE_DELAY_MS} ms per task, ${SLOTS} slots per worker (ceiling ` +
      `${(SLOTS * 1000) / ENGINE_DELAY_MS} tasks/s per worker); ${TASKS} tasks per figure`,
  });
  process.stdout.write(`${JSON.stringify(rows)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
