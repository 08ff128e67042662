// Task service: credits held and settled through the ledger, parallel submits, idempotency, limits, cancel, failure,
// recovery.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, FEATURE_MESSAGES, quote, TASK_ERROR_CODES } from '../../src/lib/product-rules';
import { APP_DATABASES } from '../test-support/app-databases';
import { testEngine, testApps, type TestTaskApp } from '../test-support/task-apps';

const openApp = testApps();

async function submitTts(app: TestTaskApp['app'], token: string, text: string, headers: Record<string, string> = {}) {
  const res = await app.request('/api-playground/speech/v1/tts', {
    method: 'POST',
    headers: { 'content-type': 'application/json', token, ...headers },
    body: JSON.stringify({ text, voiceId: 'en-us-female-1' }),
  });
  return {
    status: res.status,
    headers: res.headers,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    body: (await res.json()) as { code: number; msg: string; data: any },
  };
}

describe.each(APP_DATABASES)('task credits on $label', ({ postgres }) => {
  it('200 parallel submits with credits for exactly 37: 37 accepted, the rest refused, balance 0, ledger = balance', async () => {
    const t = await openApp({ postgres, env: { TASK_USER_CONCURRENCY: '1000' } });
    const user = await t.createUser(37);
    // One TTS Common task of ≤ 250 characters costs 1 credit (SPEC.md §9).
    expect(quote('tts-common', { characters: 11 })).toBe(1);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => submitTts(t.app, user.token, `hello ${i}`.padEnd(11, '!'))),
    );
    const accepted = results.filter((r) => r.status === 200 && r.body.code === 0);
    const refused = results.filter((r) => r.status !== 200);
    expect(accepted).toHaveLength(37);
    expect(refused).toHaveLength(163);
    for (const r of refused) {
      expect(r.status).toBe(402);
      expect(r.body.code).toBe(TASK_ERROR_CODES.insufficientCredits);
      expect(r.body.msg).toMatch(/Not enough credits for this task: it needs 1, the balance is 0/);
    }
    const state = await t.creditState(user.id);
    expect(state.balance).toBe(0);
    expect(state.ledgerSum).toBe(state.balance);
    const tasks = await t.database.db.selectFrom('tasks').select('id').where('user_id', '=', user.id).execute();
    expect(tasks).toHaveLength(37);
  });

  it('an Idempotency-Key replay returns the same task and charges once; another body with the key is a 409', async () => {
    const t = await openApp({
      postgres,
      engines: [testEngine({ name: 'test' })],
      env: { ENGINES: 'tts-common=test' },
    });
    const user = await t.createUser(10);
    const { system } = t;
    const req = {
      userId: user.id,
      feature: 'tts-common' as const,
      input: { text: 'hello there', voice: 'en-us-male-1' },
      source: 'api' as const,
      idempotencyKey: 'key-1',
    };
    const [a, b] = await Promise.all([system.tasks.submit(req), system.tasks.submit(req)]);
    const c = await system.tasks.submit(req);
    expect(new Set([a.task.id, b.task.id, c.task.id]).size).toBe(1);
    expect([a.replayed, b.replayed, c.replayed].filter(Boolean)).toHaveLength(2);
    await expect(
      system.tasks.submit({ ...req, input: { text: 'something else', voice: 'en-us-male-1' } }),
    ).rejects.toMatchObject({ status: 409 });
    const state = await t.creditState(user.id);
    expect(state.balance).toBe(9);
    expect(state.ledger.filter((r) => r.reason === 'task-hold')).toHaveLength(1);
    expect(state.ledgerSum).toBe(state.balance);
  });
});

describe('task lifecycle', () => {
  it('runs a task: queued → running → succeeded, charge settled by the price table, output stored', async () => {
    const t = await openApp({ engines: [testEngine()], env: { ENGINES: 'tts-common=test' } });
    const user = await t.createUser(5);
    const text = 'x'.repeat(260); // two blocks of 250 characters: 2 credits
    const { task } = await t.submitSpeech(user.id, text, 'playground');
    expect(task.status).toBe('queued');
    expect(task.credits_held).toBe(2);
    await t.system.queue.start();
    const done = await t.waitForTask(task.id);
    expect(done.status).toBe('succeeded');
    expect(done.credits_charged).toBe(quote('tts-common', { characters: 260 }));
    expect(done.progress).toBe(100);
    expect(done.started_at).not.toBeNull();
    expect(done.finished_at).not.toBeNull();
    const media = await t.database.db.selectFrom('media').selectAll().where('task_id', '=', task.id).execute();
    expect(media).toHaveLength(1);
    const state = await t.creditState(user.id);
    expect(state.balance).toBe(3);
    expect(state.ledgerSum).toBe(3);
  });

  it('refunds a task whose engine fails, with the reason recorded', async () => {
    const t = await openApp({
      engines: [testEngine({ fail: 'model crashed' })],
      env: { ENGINES: 'tts-common=test' },
    });
    const user = await t.createUser(3);
    const { task } = await t.submitSpeech(user.id, 'hi');
    await t.system.queue.start();
    const done = await t.waitForTask(task.id);
    expect(done.status).toBe('failed');
    expect(done.error).toContain('model crashed');
    expect(done.credits_charged).toBe(0);
    const state = await t.creditState(user.id);
    expect(state.balance).toBe(3);
    expect(state.ledger.map((r) => r.reason)).toEqual(['grant', 'task-hold', 'task-refund']);
  });

  it('cancels a queued task with a refund, and refuses to cancel a finished one', async () => {
    const t = await openApp({ engines: [testEngine()], env: { ENGINES: 'tts-common=test' } });
    const user = await t.createUser(3);
    const sub = await submitTts(t.app, user.token, 'cancel me');
    const cancel = await t.app.request('/api-playground/video_tools/v1/cancel', {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: user.token },
      body: JSON.stringify({ taskId: sub.body.data.taskId }),
    });
    expect(cancel.status).toBe(200);
    expect((await cancel.json()).data.status).toBe('canceled');
    expect((await t.creditState(user.id)).balance).toBe(3);
    const again = await t.app.request('/api-playground/video_tools/v1/cancel', {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: user.token },
      body: JSON.stringify({ taskId: sub.body.data.taskId }),
    });
    expect(again.status).toBe(409);
    expect((await again.json()).msg).toContain('Only queued or running tasks can be canceled');
  });

  it('answers 429 with Retry-After when the user has too many tasks in progress', async () => {
    const t = await openApp({
      engines: [testEngine()],
      env: { ENGINES: 'tts-common=test', TASK_USER_CONCURRENCY: '2' },
    });
    const user = await t.createUser(10);
    expect((await submitTts(t.app, user.token, 'one')).status).toBe(200);
    expect((await submitTts(t.app, user.token, 'two')).status).toBe(200);
    const third = await submitTts(t.app, user.token, 'three');
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(third.body.msg).toContain('Too many tasks in progress');
    expect((await t.creditState(user.id)).balance).toBe(8);
  });

  it('refuses a feature with no engine configured with 503 and code 50301, names no server setting, and charges nothing', async () => {
    const t = await openApp();
    const user = await t.createUser(100);
    // Try-on has no offline engine (by default only the video features go to the preview engine; docs/engines.md).
    const res = await t.app.request('/api-playground/clothes_changer/v1/create_task', {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: user.token },
      body: JSON.stringify({ modelImageUrl: 'https://example.com/m.png', upperUrl: 'https://example.com/u.png' }),
    });
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body).toMatchObject({ code: ERROR_CODES.featureUnavailable, msg: FEATURE_MESSAGES.unavailable, data: null });
    expect(body.msg).not.toContain('ENGINES');
    expect((await t.creditState(user.id)).balance).toBe(100);
  });

  it('recover() queues a task left running again, or fails and refunds it after its attempts', async () => {
    const t = await openApp({ engines: [testEngine()], env: { ENGINES: 'tts-common=test' } });
    const user = await t.createUser(5);
    const a = await t.submitSpeech(user.id, 'a');
    const b = await t.submitSpeech(user.id, 'b');
    const db = t.database.db;
    await db.updateTable('tasks').set({ status: 'running', attempts: 1 }).where('id', '=', a.task.id).execute();
    await db.updateTable('tasks').set({ status: 'running', attempts: 3 }).where('id', '=', b.task.id).execute();
    expect(await t.system.tasks.recover(3)).toEqual({ resumed: 1, failed: 1 });
    expect((await t.system.tasks.byId(a.task.id))!.status).toBe('queued');
    const failed = (await t.system.tasks.byId(b.task.id))!;
    expect(failed.status).toBe('failed');
    const state = await t.creditState(user.id);
    expect(state.balance).toBe(4);
    expect(state.ledgerSum).toBe(4);
  });
});
