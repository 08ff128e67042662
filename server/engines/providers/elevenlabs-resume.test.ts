// A dub survives its server: kill -9 or a SIGTERM hand-back mid-dub, then a restart on the same data, follows the same dub (one submission, charged once); a dub whose task is canceled, fails or times out is deleted at ElevenLabs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../../db';
import { createUser, creditState, waitForTask, type TestUser } from '../../test-support/tasks';
import { startServer, until, type ServerProcess } from '../../test-support/server-process';
import { PROVIDER_JOB_MESSAGES } from '../../../src/lib/spec';
import { KEY, useElevenLabsFake } from './elevenlabs.fixtures';

const el = useElevenLabsFake();
const dir = mkdtempSync(path.join(tmpdir(), 'elevenlabs-resume-'));
const CREDITS = 1000;
let database: AppDatabase;
let servers: ServerProcess[] = [];
let env: Record<string, string>;

beforeAll(async () => {
  env = {
    DATA_DIR: dir,
    DATABASE_URL: `sqlite:${path.join(dir, 'app.db')}`,
    SECRET_KEY: 'resume-test-secret-resume-test-secret-01',
    ENGINES: 'video-translate-voice-only=elevenlabs',
    ELEVENLABS_API_KEY: KEY,
    ELEVENLABS_BASE_URL: el.fake.url,
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

/** A voice-only translation through the public API, of a video on another host (the fake serves it). */
async function submit(server: ServerProcess, u: TestUser): Promise<string> {
  const res = await fetch(`${server.url}/api/async/video_translate/2.0`, {
    method: 'POST',
    headers: { authorization: `Bearer ${u.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ videoUrl: `${el.fake.url}/files/source.mp4`, targetLanguage: 'es', enableLipSync: false }),
  });
  const body = (await res.json()) as { message: string; data: { taskId: string } };
  expect(res.status, body.message).toBe(200);
  return body.data.taskId;
}

const dubbingSubmits = () => el.posts('/v1/dubbing').length;
const deletes = (id: string) => el.fake.calls.filter((c) => c.method === 'DELETE' && c.path === `/v1/dubbing/${id}`).length;
/** Waits until the dub is being followed: it exists at ElevenLabs and its reference is kept with the task. */
async function dubbing(taskId: string) {
  await until(async () => el.fake.calls.some((c) => c.method === 'GET' && c.path === '/v1/dubbing/dub1'));
  await until(async () => (await database.db.selectFrom('provider_jobs').select('task_id').where('task_id', '=', taskId).executeTakeFirst()) !== undefined);
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

describe('ElevenLabs dubbing across server processes', () => {
  it('kill -9 mid-dub, then a restart on the same data: the same dub is followed, one submission, charged once', async () => {
    el.fake.mode = 'gated';
    const u = await user();
    const first = await start();
    const taskId = await submit(first, u);
    await dubbing(taskId);
    expect(await first.stop('SIGKILL')).toBeNull();
    el.fake.release();

    await start();
    const task = await expectChargedOnce(u, taskId);
    expect(task.attempts).toBe(2);
    expect(dubbingSubmits()).toBe(1);
    expect(deletes('dub1')).toBe(0);
    expect(el.fake.running()).toEqual([]);
    const job = await database.db.selectFrom('provider_jobs').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ engine: 'elevenlabs', name: 'dubbing', attempt: 2 });
    expect(JSON.parse(job.ref)).toMatchObject({ id: 'dub1' });
    expect(job.ended_at).not.toBeNull();
  }, 120_000);

  it('a SIGTERM drain hands the task back without deleting its dub; the next start follows the same dub, charged once', async () => {
    el.fake.mode = 'gated';
    const u = await user();
    const first = await start({ DRAIN_TIMEOUT_S: '1' });
    const taskId = await submit(first, u);
    await dubbing(taskId);
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(await database.db.selectFrom('tasks').select(['status', 'attempts']).where('id', '=', taskId).executeTakeFirstOrThrow()).toEqual({ status: 'queued', attempts: 1 });
    expect(deletes('dub1')).toBe(0);
    el.fake.release();

    await start();
    const task = await expectChargedOnce(u, taskId);
    expect(task.attempts).toBe(2);
    expect(dubbingSubmits()).toBe(1);
    expect(deletes('dub1')).toBe(0);
    expect(el.fake.running()).toEqual([]);
  }, 120_000);

  it('a task canceled while no process runs it has its dub deleted from the stored reference, refunded', async () => {
    el.fake.mode = 'hang';
    const u = await user();
    const first = await start();
    const taskId = await submit(first, u);
    await dubbing(taskId);
    await first.stop('SIGKILL');
    // An API-only process: it runs no task, yet the cancel reaches ElevenLabs.
    const api = await start({ ROLE: 'api' });
    const res = await fetch(`${api.url}/api-playground/video_tools/v1/cancel`, { method: 'POST', headers: { token: u.token, 'content-type': 'application/json' }, body: JSON.stringify({ taskId }) });
    expect(res.status).toBe(200);
    await expectRefunded(u, taskId, 'canceled');
    await until(() => deletes('dub1') === 1);
    expect(el.fake.running()).toEqual([]);
    expect(dubbingSubmits()).toBe(1);
  }, 120_000);

  it('a resumed dub that runs past the engine deadline is deleted at ElevenLabs, failed and refunded, never submitted again', async () => {
    el.fake.mode = 'hang';
    const u = await user();
    const first = await start();
    const taskId = await submit(first, u);
    await dubbing(taskId);
    await first.stop('SIGKILL');

    await start({ ENGINE_TIMEOUTS_MS: 'elevenlabs=2000' });
    const task = await expectRefunded(u, taskId, 'failed');
    expect(task.error).toContain('timed out');
    await until(() => deletes('dub1') === 1);
    expect(el.fake.running()).toEqual([]);
    expect(dubbingSubmits()).toBe(1);
  }, 120_000);

  it('a dub ElevenLabs no longer knows fails the resumed attempt with that reason instead of dubbing again', async () => {
    el.fake.mode = 'hang';
    const u = await user();
    const first = await start();
    const taskId = await submit(first, u);
    await dubbing(taskId);
    await first.stop('SIGKILL');
    // Gone at ElevenLabs while no process ran the task (deleted in its dashboard, or expired).
    await fetch(`${el.fake.url}/v1/dubbing/dub1`, { method: 'DELETE', headers: { 'xi-api-key': KEY } });

    await start();
    const task = await expectRefunded(u, taskId, 'failed');
    expect(task.error).toContain(PROVIDER_JOB_MESSAGES.unknown('ElevenLabs', 'dub1'));
    expect(dubbingSubmits()).toBe(1);
  }, 120_000);
});
