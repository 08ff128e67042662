// A worker process killed with SIGKILL mid-task and started again: the task ends finished or refunded, no credit lost.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db';
import { createLogger } from '../log';
import { createTaskSystem } from '.';
import { expectCharged } from '../test-support/ledger';
import {
  createUser,
  creditState,
  submitSpeech,
  TASKS_TEST_SECRET,
  testEngine,
  waitForTask,
} from '../test-support/tasks';

const dir = mkdtempSync(path.join(tmpdir(), 'tasks-restart-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const env = { DATABASE_URL: `sqlite:${path.join(dir, 'app.db')}`, DATA_DIR: dir, SECRET_KEY: TASKS_TEST_SECRET };

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('server/test-support/task-worker.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
  });
}

describe('restart recovery', () => {
  it('a task running when its process is killed -9 is resumed after a restart, charged once, nothing lost', async () => {
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent', ENGINES: 'tts-common=test' });
    const database = await openDatabase(config.databaseUrl);
    await migrateToLatest(database);
    const t = { database, config };
    // Submits go through the real service in this process; only the worker process runs tasks.
    const submitter = createTaskSystem({ config, database, log: createLogger('silent'), extraEngines: [testEngine()] });
    const user = await createUser(t, 10);
    const { task } = await submitSpeech(submitter, user.id, 'survive a crash');

    const first = await startWorker();
    for (let i = 0; i < 400; i++) {
      if ((await submitter.tasks.byId(task.id))!.status === 'running') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await submitter.tasks.byId(task.id))!.status).toBe('running');
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    expect((await submitter.tasks.byId(task.id))!.status).toBe('running');
    expect((await creditState(t, user.id)).balance).toBe(9);

    await startWorker();
    const done = await waitForTask(t, task.id, 60_000);
    expect(['succeeded', 'failed']).toContain(done.status);
    await expectCharged(t, user, done.credits_charged ?? 0);
    expect(done.status).toBe('succeeded');
    expect(done.attempts).toBe(2);
    await database.close();
    // Two process starts and a lease expiry: generous, so a busy machine slows the test instead of failing it.
  }, 120_000);
});
