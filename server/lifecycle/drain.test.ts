// SIGTERM mid-task on the real server: not ready at once, stops accepting, and the task ends finished or handed back
// and finished later, charged once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import { createUser, creditState, waitForTask, type TestUser } from '../test-support/tasks';
import {
  gatedSpeechProvider,
  startServer,
  until,
  type GatedSpeechProvider,
  type ServerProcess,
} from '../test-support/server-process';

const dir = mkdtempSync(path.join(tmpdir(), 'drain-'));
const SECRET_KEY = 'drain-test-secret-drain-test-secret-0123';
const CREDITS = 1000;
const servers: ServerProcess[] = [];
let database: AppDatabase;
let provider: GatedSpeechProvider;
let env: Record<string, string>;

beforeAll(async () => {
  provider = await gatedSpeechProvider();
  env = {
    DATA_DIR: dir,
    DATABASE_URL: `sqlite:${path.join(dir, 'app.db')}`,
    SECRET_KEY,
    // Speech goes to the provider, which answers only when the test releases it: the task is running at SIGTERM.
    ENGINES: 'tts-common=elevenlabs',
    ELEVENLABS_API_KEY: 'drain-test-key',
    ELEVENLABS_BASE_URL: provider.url,
    OUTBOUND_ALLOW_PRIVATE: 'true',
    TASK_POLL_MS: '50',
  };
  database = await openDatabase(env.DATABASE_URL!);
  await migrateToLatest(database);
});

afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await database.close();
  await provider.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(extra: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer({ ...env, ...extra });
  servers.push(server);
  return server;
}

async function submit(server: ServerProcess, user: TestUser): Promise<string> {
  const res = await fetch(`${server.url}/api-playground/speech/v1/tts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token: user.token },
    body: JSON.stringify({ text: 'Finish me before you go', voiceId: 'en-us-female-1' }),
  });
  const body = (await res.json()) as { code: number; msg: string; data: { taskId: string } };
  expect(body.code).toBe(0);
  return body.data.taskId;
}

/**
 * One hold, at most one settle, no refund, and the balance is what the task was charged: charged once, nothing lost.
 */
async function expectChargedOnce(user: TestUser, taskId: string) {
  const task = await waitForTask({ database }, taskId, 60_000);
  expect(task.status).toBe('succeeded');
  const state = await creditState({ database }, user.id);
  const mine = state.ledger.filter((r) => r.reference === taskId);
  expect(mine.filter((r) => r.reason === 'task-hold')).toHaveLength(1);
  expect(mine.filter((r) => r.reason === 'task-settle').length).toBeLessThanOrEqual(1);
  expect(mine.filter((r) => r.reason === 'task-refund')).toEqual([]);
  expect(state.balance).toBe(state.ledgerSum);
  expect(state.balance).toBe(CREDITS - task.credits_charged!);
  expect(task.credits_charged).toBeGreaterThan(0);
  return task;
}

describe('graceful drain on SIGTERM', () => {
  it('answers /readyz 503 at once, stops accepting, lets the running task finish within DRAIN_TIMEOUT_S and exits 0', async () => {
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
    const user = await createUser({ database, config }, CREDITS);
    const server = await start({ DRAIN_TIMEOUT_S: '60', DRAIN_DELAY_S: '1' });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const taskId = await submit(server, user);
    await until(() => provider.requests === 1);

    server.child.kill('SIGTERM');
    // For DRAIN_DELAY_S the port still answers, not ready, so a load balancer takes it out of rotation…
    await until(async () => (await fetch(`${server.url}/readyz`)).status === 503);
    // …then it accepts no connection, while the task is still held by the provider.
    await until(() =>
      fetch(`${server.url}/healthz`).then(
        () => false,
        () => true,
      ),
    );
    expect(server.child.exitCode).toBeNull();
    expect(
      (await database.db.selectFrom('tasks').select('status').where('id', '=', taskId).executeTakeFirstOrThrow())
        .status,
    ).toBe('running');

    provider.release();
    expect(await server.exited).toBe(0);
    const task = await expectChargedOnce(user, taskId);
    expect(task.attempts).toBe(1);
    expect(server.logs.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['draining', 'requests and tasks drained', 'stopped']),
    );
  }, 120_000);

  it('writes the public API calls its request log still holds before it exits', async () => {
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
    const user = await createUser({ database, config }, CREDITS);
    const server = await start({ DRAIN_DELAY_S: '0' });
    const res = await fetch(`${server.url}/api/remaining_credits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.apiKey}` },
    });
    expect(res.status).toBe(200);
    // Stopped at once: the call is still pending in the log (REQUEST_LOG.writeEveryMs), so only the drain writes it.
    expect(await server.stop('SIGTERM')).toBe(0);
    const logged = await database.db
      .selectFrom('api_requests')
      .select(['tool', 'status'])
      .where('user_id', '=', user.id)
      .execute();
    expect(logged).toEqual([{ tool: 'remaining_credits', status: 200 }]);
  }, 60_000);

  it('hands a task still running at the deadline back to the queue, uncharged and unrefunded, and the next start finishes it', async () => {
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
    const user = await createUser({ database, config }, CREDITS);
    const held = await gatedSpeechProvider();
    try {
      const first = await start({ DRAIN_TIMEOUT_S: '1', ELEVENLABS_BASE_URL: held.url });
      const taskId = await submit(first, user);
      await until(() => held.requests === 1);
      expect(await first.stop('SIGTERM')).toBe(0);

      const after = await database.db
        .selectFrom('tasks')
        .selectAll()
        .where('id', '=', taskId)
        .executeTakeFirstOrThrow();
      expect(after).toMatchObject({ status: 'queued', attempts: 1, credits_charged: null, finished_at: null });
      const state = await creditState({ database }, user.id);
      expect(state.ledger.filter((r) => r.reference === taskId).map((r) => r.reason)).toEqual(['task-hold']);
      expect(state.balance).toBe(CREDITS - after.credits_held);

      held.release();
      const second = await start({ DRAIN_TIMEOUT_S: '30', ELEVENLABS_BASE_URL: held.url });
      const task = await expectChargedOnce(user, taskId);
      expect(task.attempts).toBe(2);
      expect(await second.stop('SIGTERM')).toBe(0);
    } finally {
      await held.close();
    }
  }, 120_000);
});
