// The PostgreSQL job queue across processes: api and worker instances, one commit for job and hold, kill -9 takeover,
// cancel by NOTIFY, refund after the attempts.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import type { Engine } from '../engines';
import { waitForHook } from '../engines/providers/hooks';
import { createLogger } from '../log';
import { TASK_LIMITS, TASK_MESSAGES, TASK_QUEUE } from '../../src/lib/product-rules';
import { createTaskSystem, LEDGER_REASONS, type TaskSystem } from '.';
import type { pgBossQueue } from './pg-boss-queue';
import { expectCharged, taskLedger } from '../test-support/ledger';
import { PG_BOSS_TEST_ENV } from '../test-support/pg-boss-systems';
import { createUser, creditState, TASKS_TEST_SECRET, testEngine, waitForTask } from '../test-support/tasks';
import { postgresSkipReason } from '../test-support/instances';
import { freshPostgresDatabase } from '../db/test-support/engines';

const adminUrl = process.env.TEST_DATABASE_URL;

const skipReason = await postgresSkipReason(adminUrl);
if (skipReason) console.warn(`pg-boss queue tests skipped: ${skipReason}`);

const dir = mkdtempSync(path.join(tmpdir(), 'pg-boss-queue-'));
let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
let dbUrl = '';
/** Lease and check as short as pg-boss allows, so a takeover after kill -9 comes within seconds. */
const queueEnv = { ...PG_BOSS_TEST_ENV, ENGINES: 'tts-common=test' };
const open: { system: TaskSystem; database: AppDatabase }[] = [];
const children: ChildProcess[] = [];

function configFor(role: 'api' | 'worker', env: Record<string, string> = {}) {
  return loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dir,
    SECRET_KEY: TASKS_TEST_SECRET,
    PUBLIC_URL: 'http://localhost:8787',
    DATABASE_URL: dbUrl,
    ROLE: role,
    ...queueEnv,
    ...env,
  });
}

/** One instance of the task system on the shared database, as a process of that role would build it. */
async function instance(role: 'api' | 'worker', engine: Engine = testEngine(), env: Record<string, string> = {}) {
  const config = configFor(role, env);
  const database = await openDatabase(dbUrl);
  const system = createTaskSystem({ config, database, log: createLogger('silent'), extraEngines: [engine] });
  await system.start();
  open.push({ system, database });
  return { system, database, config };
}

async function closeAll() {
  for (const { system, database } of open.splice(0).reverse()) {
    await system.stop();
    await database.close();
  }
}

function startWorkerProcess(delayMs: number): Promise<ChildProcess> {
  const env = {
    ...process.env,
    ...queueEnv,
    DATABASE_URL: dbUrl,
    ROLE: 'worker',
    DATA_DIR: dir,
    SECRET_KEY: TASKS_TEST_SECRET,
    TEST_ENGINE_DELAY_MS: String(delayMs),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('server/test-support/task-worker.ts')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
  });
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const input = { text: 'a job on PostgreSQL', voice: 'en-us-male-1' };
const jobsOf = (system: TaskSystem, id: string) =>
  (system.queue as ReturnType<typeof pgBossQueue>).boss.findJobs(TASK_QUEUE.jobs, { id });

describe.skipIf(skipReason !== null)('pg-boss job queue (PostgreSQL)', () => {
  beforeAll(async () => {
    fresh = await freshPostgresDatabase(adminUrl!, 'boss');
    dbUrl = fresh.url;
    const database = await openDatabase(dbUrl);
    await migrateToLatest(database);
    await database.close();
  });
  afterEach(async () => {
    for (const child of children.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await closeAll();
  });
  afterAll(async () => {
    if (fresh) {
      await fresh.drop();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('a task submitted on an api instance is stored with its job and run by a worker instance', async () => {
    const api = await instance('api');
    const user = await createUser(api, 10);
    const { task } = await api.system.tasks.submit({ userId: user.id, feature: 'tts-common', input, source: 'api' });
    expect(await jobsOf(api.system, task.id)).toHaveLength(1);
    // The api role runs nothing: the task waits for a worker.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await api.system.tasks.byId(task.id))!.status).toBe('queued');

    await instance('worker');
    const done = await waitForTask(api, task.id, 30_000);
    expect(done.status).toBe('succeeded');
    expect(done.attempts).toBe(1);
    await expectCharged(api, user, done.credits_charged!);
    expect(await taskLedger(api, user.id, task.id)).not.toContain(LEDGER_REASONS.refund);
  }, 60_000);

  it('the job and the hold commit together: a failure after enqueue inside the transaction leaves neither task, hold nor job', async () => {
    const api = await instance('api');
    const enqueued: string[] = [];
    const failing = createTaskSystem({
      config: api.config,
      database: api.database,
      log: createLogger('silent'),
      extraEngines: [testEngine()],
      queue: () => ({
        ...api.system.queue,
        async enqueue(trx, task) {
          await api.system.queue.enqueue!(trx, task);
          enqueued.push(task.id);
          throw new Error('forced failure after enqueue');
        },
      }),
    });
    const user = await createUser(api, 10);
    await expect(
      failing.tasks.submit({ userId: user.id, feature: 'tts-common', input, source: 'api' }),
    ).rejects.toThrow('forced failure after enqueue');
    expect(enqueued).toHaveLength(1);
    const id = enqueued[0]!;
    expect(await api.system.tasks.byId(id)).toBeUndefined();
    expect(await jobsOf(api.system, id)).toHaveLength(0);
    const state = await creditState(api, user.id);
    expect(state.balance).toBe(10);
    expect(state.ledger.filter((r) => r.reference === id)).toHaveLength(0);
  }, 30_000);

  it('a worker killed with -9 mid-task loses its lease and another worker finishes the task, settled once', async () => {
    const api = await instance('api');
    const user = await createUser(api, 10);
    const slow = await startWorkerProcess(120_000);
    const { task } = await api.system.tasks.submit({ userId: user.id, feature: 'tts-common', input, source: 'api' });
    await waitFor(
      async () => (await api.system.tasks.byId(task.id))!.status === 'running',
      20_000,
      'the worker process claiming the task',
    );
    slow.kill('SIGKILL');
    await new Promise((r) => slow.once('exit', r));
    const killedAt = Date.now();

    await instance('worker');
    const done = await waitForTask(api, task.id, 60_000);
    console.info(
      `pg-boss takeover after kill -9: task finished ${((Date.now() - killedAt) / 1000).toFixed(1)} s after ` +
        `the kill (lease ${queueEnv.QUEUE_LEASE_S} s, check ${queueEnv.QUEUE_CHECK_S} s)`,
    );
    expect(done.status).toBe('succeeded');
    expect(done.attempts).toBe(2);
    const reasons = await taskLedger(api, user.id, task.id);
    expect(reasons.filter((r) => r === LEDGER_REASONS.hold)).toHaveLength(1);
    expect(reasons.filter((r) => r === LEDGER_REASONS.settle).length).toBeLessThanOrEqual(1);
    expect(reasons).not.toContain(LEDGER_REASONS.refund);
    await expectCharged(api, user, done.credits_charged!);
  }, 90_000);

  it('cancel on the api instance aborts the engine running the task on a worker instance', async () => {
    let started = false;
    let abortedOnWorker = false;
    const waitsForAbort: Engine = {
      name: 'test',
      features: ['tts-common'],
      run(_feature, _input, ctx) {
        started = true;
        return new Promise((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => {
            abortedOnWorker = true;
            reject(new Error('aborted'));
          }),
        );
      },
    };
    const api = await instance('api');
    await instance('worker', waitsForAbort);
    const user = await createUser(api, 10);
    const { task } = await api.system.tasks.submit({ userId: user.id, feature: 'tts-common', input, source: 'api' });
    await waitFor(() => started, 20_000, 'the engine starting on the worker');
    // What the cancel routes do: settle the task, then tell the queue.
    await api.system.tasks.cancel(user.id, task.id);
    api.system.queue.abort(task.id);
    await waitFor(() => abortedOnWorker, 10_000, 'the engine on the worker being aborted');
    expect((await api.system.tasks.byId(task.id))!.status).toBe('canceled');
    expect(await taskLedger(api, user.id, task.id)).toEqual([LEDGER_REASONS.hold, LEDGER_REASONS.refund]);
  }, 60_000);

  it('a provider webhook taken by the api instance wakes the worker instance waiting for it', async () => {
    const api = await instance('api');
    await instance('worker');
    const key = `test/${randomBytes(8).toString('hex')}`;
    // Far longer than the test: only the webhook's NOTIFY, heard by the worker's listener, ends the wait in time.
    const woken = waitForHook(key, 600_000, AbortSignal.timeout(10_000)).then(() => true);
    expect(await api.system.queue.wake(key)).toBe(true);
    expect(await woken).toBe(true);
  }, 30_000);

  it(`a task whose attempts all fail (${TASK_LIMITS.maxAttempts}) is failed and refunded once`, async () => {
    const api = await instance('api');
    // A media directory below a regular file: every attempt fails to store its output.
    const blocker = path.join(dir, 'not-a-directory');
    writeFileSync(blocker, '');
    await instance('worker', testEngine(), { MEDIA_DIR: path.join(blocker, 'media') });
    const user = await createUser(api, 10);
    const { task } = await api.system.tasks.submit({ userId: user.id, feature: 'tts-common', input, source: 'api' });
    const done = await waitForTask(api, task.id, 60_000);
    expect(done.status).toBe('failed');
    // A paid run (it held credits): its reason says they were refunded.
    expect(done.error).toBe(`${TASK_MESSAGES.attemptsExhausted(TASK_LIMITS.maxAttempts)}; ${TASK_MESSAGES.refunded}`);
    expect(done.attempts).toBe(TASK_LIMITS.maxAttempts);
    expect(await taskLedger(api, user.id, task.id)).toEqual([LEDGER_REASONS.hold, LEDGER_REASONS.refund]);
    const state = await creditState(api, user.id);
    expect(state.balance).toBe(10);
    expect(state.ledgerSum).toBe(10);
  }, 90_000);
});
