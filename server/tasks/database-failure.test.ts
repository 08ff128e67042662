// A run whose result cannot be stored (the database refused: locked by another process) goes back to the queue after a
// pause and runs again, not left running until a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db';
import type { Logger } from '../log';
import { createTaskSystem } from '.';
import { expectCharged } from '../test-support/ledger';
import { createUser, submitSpeech, TASKS_TEST_SECRET, testEngine, waitForTask } from '../test-support/tasks';
import { until } from '../test-support/server-process';

const dir = mkdtempSync(path.join(tmpdir(), 'tasks-db-failure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A logger that keeps its lines, so the test can wait for the failure it provokes. */
function recordingLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (msg: string) => void lines.push(msg);
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

describe('a run the database refuses to store', () => {
  it('goes back to the queue and runs again: it finishes, charged once, with no restart', async () => {
    const file = path.join(dir, 'app.db');
    const config = loadConfig({
      DATABASE_URL: `sqlite:${file}`,
      DATA_DIR: dir,
      SECRET_KEY: TASKS_TEST_SECRET,
      LOG_LEVEL: 'silent',
      ENGINES: 'tts-common=test',
      TASK_POLL_MS: '1000',
    });
    const database = await openDatabase(config.databaseUrl);
    await migrateToLatest(database);
    // The server waits a short while for a lock, so the refusal comes quickly; the pause before the run is queued again
    // (TASK_POLL_MS) leaves the test ample time to let the lock go.
    await sql`pragma busy_timeout = 100`.execute(database.db);
    const t = { database, config };
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const log = recordingLog();
    const system = createTaskSystem({ config, database, log, extraEngines: [testEngine({ gate })] });
    await system.queue.start();
    const user = await createUser(t, 10);
    const { task } = await submitSpeech(system, user.id, 'store me');
    // The run starts.
    await until(async () => (await system.tasks.byId(task.id))!.status === 'running');

    // Another process (an operator's CLI, say) holds the write lock while the engine's result comes back.
    const other = new Database(file);
    other.exec('begin immediate');
    open();
    // The run fails on the lock.
    await until(() => log.lines.includes('task run failed'));
    expect((await system.tasks.byId(task.id))!.status).toBe('running');
    other.exec('rollback');
    other.close();

    const done = await waitForTask(t, task.id, 15_000);
    expect(done.status).toBe('succeeded');
    expect(done.attempts).toBe(2);
    await expectCharged(t, user, done.credits_charged!);
    await system.queue.stop();
    await database.close();
  }, 60_000);
});
