// A draining pg-boss worker hands a task still running at its deadline back: the job is retried on another worker, the
// task charged once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import type { Engine } from '../engines';
import { createLogger } from '../log';
import { createTaskSystem, type TaskSystem } from '.';
import { freshPostgresDatabase } from '../db/test-support/engines';
import { postgresSkipReason } from '../test-support/instances';
import { until } from '../test-support/server-process';
import { expectCharged, taskLedger } from '../test-support/ledger';
import { createUser, submitSpeech, TASKS_TEST_SECRET, testEngine, waitForTask } from '../test-support/tasks';

const adminUrl = process.env.TEST_DATABASE_URL;
const skipReason = await postgresSkipReason(adminUrl);
if (skipReason) console.warn(`pg-boss drain test skipped: ${skipReason}`);

const dir = mkdtempSync(path.join(tmpdir(), 'pg-boss-drain-'));
let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
const open: Array<{ system: TaskSystem; database: AppDatabase }> = [];

/** An engine that works until its run is stopped, as a provider call does. */
const endless: Engine = {
  ...testEngine(),
  run: (_feature, _input, ctx) =>
    new Promise((_, reject) =>
      ctx.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }),
    ),
};

async function worker(dbUrl: string, engine: Engine = testEngine()) {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dir,
    SECRET_KEY: TASKS_TEST_SECRET,
    DATABASE_URL: dbUrl,
    ROLE: 'all',
    ENGINES: 'tts-common=test',
    QUEUE: 'pg-boss',
    QUEUE_LEASE_S: '10',
    QUEUE_CHECK_S: '1',
    QUEUE_RETRY_DELAY_S: '1',
    TASK_POLL_MS: '500',
  });
  const database = await openDatabase(dbUrl);
  const system = createTaskSystem({ config, database, log: createLogger('silent'), extraEngines: [engine] });
  await system.start();
  const entry = { system, database, config };
  open.push(entry);
  return entry;
}

describe.skipIf(skipReason !== null)('draining a pg-boss worker', () => {
  beforeAll(async () => {
    fresh = await freshPostgresDatabase(adminUrl!, 'drain');
    const database = await openDatabase(fresh.url);
    await migrateToLatest(database);
    await database.close();
  });
  afterAll(async () => {
    for (const { system, database } of open.reverse()) {
      await system.stop();
      await database.close();
    }
    await fresh?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands the running task back at the deadline; another worker runs it, one hold, no refund, charged once', async () => {
    // The first worker's engine never finishes on its own.
    const first = await worker(fresh!.url, endless);
    const user = await createUser(first, 100);
    const { task } = await submitSpeech(first.system, user.id, 'hand me back');
    await until(async () => (await first.system.tasks.byId(task.id))!.status === 'running');

    await first.system.stop(300);
    const back = (await first.system.tasks.byId(task.id))!;
    expect(back).toMatchObject({ status: 'queued', attempts: 1, credits_charged: null });
    expect(await taskLedger(first, user.id, task.id)).toEqual(['task-hold']);

    const second = await worker(fresh!.url);
    const done = await waitForTask(second, task.id, 30_000);
    expect(done).toMatchObject({ status: 'succeeded', attempts: 2 });
    await expectCharged(second, user, done.credits_charged!);
    const reasons = await taskLedger(second, user.id, task.id);
    expect(reasons.filter((r) => r === 'task-hold')).toHaveLength(1);
    expect(reasons).not.toContain('task-refund');
  }, 60_000);
});
