// A fal job survives its server: kill -9 or a SIGTERM hand-back mid-job, then a restart on the same data, polls the same request (one submission, charged once); a job whose task is canceled, fails or times out is canceled at fal.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../../db';
import { createUser, creditState, waitForTask, type TestUser } from '../../test-support/tasks';
import { startServer, until, type ServerProcess } from '../../test-support/server-process';
import { PROVIDER_JOB_MESSAGES } from '../../../src/lib/spec';
import { FAL_MODELS } from '../../../src/lib/spec';
import { useFalFake } from './fal.fixtures';

const fal = useFalFake();
const dir = mkdtempSync(path.join(tmpdir(), 'fal-resume-'));
const CREDITS = 1000;
let database: AppDatabase;
let servers: ServerProcess[] = [];
let env: Record<string, string>;

beforeAll(async () => {
  env = {
    DATA_DIR: dir,
    DATABASE_URL: `sqlite:${path.join(dir, 'app.db')}`,
    SECRET_KEY: 'resume-test-secret-resume-test-secret-01',
    ENGINES: 'text-to-video=fal',
    FAL_KEY: 'test-key',
    FAL_QUEUE_URL: fal.fake.url,
    FAL_STORAGE_URL: fal.fake.url,
    OUTBOUND_ALLOW_PRIVATE: 'true',
    TASK_POLL_MS: '50',
    DRAIN_DELAY_S: '0',
  };
  database = await openDatabase(env.DATABASE_URL!);
  await migrateToLatest(database);
});

afterEach(() => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  servers = [];
});

afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(extra: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServer({ ...env, ...extra });
  servers.push(server);
  return server;
}

const user = () => createUser({ database, config: loadConfig({ ...env, LOG_LEVEL: 'silent' }) }, CREDITS);

/** A text-to-video task through the public API. */
async function submit(server: ServerProcess, u: TestUser): Promise<string> {
  const res = await fetch(`${server.url}/api/async/text2video`, { method: 'POST', headers: { authorization: `Bearer ${u.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'a fox in snow' }) });
  const body = (await res.json()) as { message: string; data: { taskId: string } };
  expect(res.status, body.message).toBe(200);
  return body.data.taskId;
}

const submits = () => fal.fake.calls.filter((c) => c.method === 'POST' && c.path === `/${FAL_MODELS.textToVideo}`).length;
const cancels = () => fal.fake.calls.filter((c) => c.method === 'PUT' && c.path.endsWith('/cancel')).length;
/** Waits until the job is being followed: fal has it and its reference is kept with the task; answers its request id. */
async function following(taskId: string): Promise<string> {
  const stored = async () => (await database.db.selectFrom('provider_jobs').select('ref').where('task_id', '=', taskId).executeTakeFirst())?.ref;
  await until(async () => (await stored()) !== undefined);
  const { requestId } = JSON.parse((await stored())!) as { requestId: string };
  await until(() => fal.fake.statusCalls.has(requestId));
  return requestId;
}

async function expectChargedOnce(u: TestUser, taskId: string) {
  const task = await waitForTask({ database }, taskId, 60_000);
  expect(task.status, task.error ?? '').toBe('succeeded');
  const state = await creditState({ database }, u.id);
  const mine = state.ledger.filter((r) => r.reference === taskId).map((r) => r.reason);
  expect(mine.filter((r) => r === 'task-hold')).toHaveLength(1);
  expect(mine.filter((r) => r === 'task-settle').length).toBeLessThanOrEqual(1);
  expect(mine).not.toContain('task-refund');
  expect(state.balance).toBe(state.ledgerSum);
  expect(state.balance).toBe(CREDITS - task.credits_charged!);
  expect(task.credits_charged).toBeGreaterThan(0);
  return task;
}

async function expectRefunded(u: TestUser, taskId: string, status: 'failed' | 'canceled') {
  const task = await waitForTask({ database }, taskId, 60_000);
  expect(task.status, task.error ?? '').toBe(status);
  const state = await creditState({ database }, u.id);
  expect(state.balance).toBe(CREDITS);
  expect(state.ledgerSum).toBe(CREDITS);
  return task;
}

describe('fal jobs across server processes', () => {
  it('kill -9 mid-job, then a restart on the same data: the same request is polled, one submission, charged once', async () => {
    fal.fake.mode = 'hook';
    const u = await user();
    const first = await start();
    const taskId = await submit(first, u);
    const requestId = await following(taskId);
    expect(await first.stop('SIGKILL')).toBeNull();
    fal.fake.released = true;

    await start();
    const task = await expectChargedOnce(u, taskId);
    expect(task.attempts).toBe(2);
    expect(submits()).toBe(1);
    expect(cancels()).toBe(0);
    expect(fal.fake.running()).toEqual([]);
    const job = await database.db.selectFrom('provider_jobs').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ engine: 'fal', name: 'job', attempt: 2 });
    expect(JSON.parse(job.ref)).toMatchObject({ requestId });
  }, 120_000);

  it('a SIGTERM drain hands the task back without canceling its job; the next start polls the same request, charged once', async () => {
    fal.fake.mode = 'hook';
    const u = await user();
    const first = await start({ DRAIN_TIMEOUT_S: '1' });
    const taskId = await submit(first, u);
    await following(taskId);
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(await database.db.selectFrom('tasks').select(['status', 'attempts']).where('id', '=', taskId).executeTakeFirstOrThrow()).toEqual({ status: 'queued', attempts: 1 });
    expect(cancels()).toBe(0);
    fal.fake.released = true;

    await start();
    const task = await expectChargedOnce(u, taskId);
    expect(task.attempts).toBe(2);
    expect(submits()).toBe(1);
    expect(cancels()).toBe(0);
    expect(fal.fake.running()).toEqual([]);
  }, 120_000);

  it('a task canceled while no process runs it has its job canceled at fal from the stored reference, refunded', async () => {
    fal.fake.mode = 'hang';
    const u = await user();
    const first = await start();
    const taskId = await submit(first, u);
    const requestId = await following(taskId);
    await first.stop('SIGKILL');
    const api = await start({ ROLE: 'api' });
    const res = await fetch(`${api.url}/api-playground/video_tools/v1/cancel`, { method: 'POST', headers: { token: u.token, 'content-type': 'application/json' }, body: JSON.stringify({ taskId }) });
    expect(res.status).toBe(200);
    await expectRefunded(u, taskId, 'canceled');
    await until(() => cancels() === 1);
    expect(fal.fake.canceled()).toEqual([requestId]);
    expect(fal.fake.running()).toEqual([]);
    expect(submits()).toBe(1);
  }, 120_000);

  it('a resumed job that runs past the engine deadline is canceled at fal, failed and refunded, never submitted again', async () => {
    fal.fake.mode = 'hang';
    const u = await user();
    const first = await start();
    const taskId = await submit(first, u);
    await following(taskId);
    await first.stop('SIGKILL');

    await start({ ENGINE_TIMEOUTS_MS: 'fal=2000' });
    const task = await expectRefunded(u, taskId, 'failed');
    expect(task.error).toContain('timed out');
    await until(() => cancels() === 1);
    expect(fal.fake.running()).toEqual([]);
    expect(submits()).toBe(1);
  }, 120_000);

  it('a request fal no longer knows fails the resumed attempt with that reason instead of submitting again', async () => {
    fal.fake.mode = 'hang';
    const u = await user();
    const first = await start();
    const taskId = await submit(first, u);
    const requestId = await following(taskId);
    await first.stop('SIGKILL');
    // Expired at fal while no process ran the task.
    fal.fake.forgetJobs();

    await start();
    const task = await expectRefunded(u, taskId, 'failed');
    expect(task.error).toContain(PROVIDER_JOB_MESSAGES.unknown('fal.ai', requestId));
    expect(submits()).toBe(1);
  }, 120_000);
});
