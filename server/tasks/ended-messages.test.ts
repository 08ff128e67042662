// What a failed or canceled task says of its credits: a free run (it held none) is never said to be refunded.
import { describe, expect, it } from 'vitest';
import { endedTaskMessage, TASK_MESSAGES } from '../../src/lib/product-rules';
import type { Engine } from '../engines';
import { espeakEngine } from '../engines/espeak';
import { testApps, type TestTaskApp } from '../test-support/task-apps';

const openApp = testApps();
let t: TestTaskApp;

/**
 * The no-model engine's name (a run on it is free under NO_MODEL_PRICE=free, charged under full), failing or waiting
 * until canceled.
 */
function espeakLike(how: 'fail' | 'wait'): Engine {
  return {
    name: 'espeak',
    // Every feature the real one serves, as the default routes name it for them.
    features: espeakEngine().features,
    async run(_f, _i, ctx) {
      await ctx.progress(10);
      if (how === 'fail') throw new Error('the voice could not be made');
      await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))));
      return { outputs: [] };
    },
  };
}

async function start(how: 'fail' | 'wait', price: 'free' | 'full') {
  t = await openApp({
    engines: [espeakLike(how)],
    env: { ENGINES: 'tts-common=espeak', NO_MODEL_PRICE: price },
    start: 'system',
  });
  const user = await t.createUser(100);
  const res = await t.app.request('/api-playground/speech/v1/tts', {
    method: 'POST',
    headers: { 'content-type': 'application/json', token: user.token },
    body: JSON.stringify({ text: 'Hello there', voiceId: 'en-us-female-1' }),
  });
  const { data } = (await res.json()) as { data: { taskId: string; credits: number } };
  return { user, ...data };
}

async function cancel(token: string, taskId: string) {
  const app = t.app;
  // Canceled once it runs, so the engine is the one that stops.
  for (;;) {
    const row = await t.database.db.selectFrom('tasks').select('status').where('id', '=', taskId).executeTakeFirst();
    if (row?.status === 'running') break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const res = await app.request(`/api-playground/video_tools/v1/cancel`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify({ taskId }),
  });
  expect(res.status).toBe(200);
}

describe('the reason of a failed or canceled task', () => {
  it('says "credits refunded" only when credits were held', () => {
    expect(endedTaskMessage(TASK_MESSAGES.timedOut, 0)).toBe(TASK_MESSAGES.timedOut);
    expect(endedTaskMessage(TASK_MESSAGES.timedOut, 12)).toBe(`${TASK_MESSAGES.timedOut}; credits refunded`);
    for (const text of [TASK_MESSAGES.interrupted, TASK_MESSAGES.engineFailed, TASK_MESSAGES.attemptsExhausted(3)])
      expect(text).not.toMatch(/refund/i);
  });

  it('a failed free run says nothing of a refund', async () => {
    const { taskId, credits } = await start('fail', 'free');
    expect(credits).toBe(0);
    const task = await t.waitForTask(taskId);
    expect(task.status).toBe('failed');
    expect(task.error).toContain('the voice could not be made');
    expect(task.error).not.toMatch(/refund/i);
  });

  it('a failed paid run says its credits were refunded', async () => {
    const { taskId, credits } = await start('fail', 'full');
    expect(credits).toBeGreaterThan(0);
    const task = await t.waitForTask(taskId);
    expect(task.error).toBe(`${TASK_MESSAGES.engineFailed}: the voice could not be made; credits refunded`);
  });

  it('a canceled free run says nothing of a refund; a canceled paid run says it was refunded', async () => {
    const free = await start('wait', 'free');
    await cancel(free.user.token, free.taskId);
    const freeTask = await t.waitForTask(free.taskId);
    expect(freeTask.status).toBe('canceled');
    expect(freeTask.error).toBe(TASK_MESSAGES.canceledByUser);
    await t.close();

    const paid = await start('wait', 'full');
    await cancel(paid.user.token, paid.taskId);
    const paidTask = await t.waitForTask(paid.taskId);
    expect(paidTask.error).toBe(`${TASK_MESSAGES.canceledByUser}; credits refunded`);
  });
});
