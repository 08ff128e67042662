// Engine fallback: a provider failing mid-way fails and refunds the task, or hands it to the next engine, charged once.
import { describe, expect, it } from 'vitest';
import { EngineInputError, type Engine } from '../engines';
import { testApps, testEngine, type TestTaskApp } from '../test-support/task-apps';
import { expectFailedAndRefunded } from '../test-support/task-outcomes';
import { expectChargedOnce } from '../test-support/ledger';

const openApp = testApps();
let t: TestTaskApp;

/** An engine that reports progress, then fails (or hangs until its deadline aborts it). */
function brokenEngine(name: string, how: 'fail' | 'hang' | 'input'): Engine {
  return {
    name,
    features: ['tts-common'],
    async run(_f, _i, ctx) {
      await ctx.progress(50);
      if (how === 'input') throw new EngineInputError('the text cannot be spoken');
      if (how === 'fail') throw new Error('upstream 502 Bad Gateway');
      await new Promise((_, reject) =>
        ctx.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      );
      return { outputs: [] };
    },
  };
}

async function submit(app: TestTaskApp['app'], token: string) {
  const res = await app.request('/api-playground/speech/v1/tts', {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify({ text: 'Hello there', voiceId: 'en-us-female-1' }),
  });
  const body = (await res.json()) as { data: { taskId: string; credits: number } };
  expect(res.status).toBe(200);
  return body.data;
}

describe('engine fallback and refunds', () => {
  it('a task whose only engine fails mid-way ends failed with the reason, and is refunded in full', async () => {
    t = await openApp({
      engines: [brokenEngine('flaky', 'fail')],
      env: { ENGINES: 'tts-common=flaky' },
      start: 'system',
    });
    const user = await t.createUser(100);
    const { taskId } = await submit(t.app, user.token);
    await expectFailedAndRefunded(t, user, taskId, 'upstream 502');
  });

  it('with a fallback configured the task ends succeeded on the second engine, recorded as such, charged once', async () => {
    t = await openApp({
      engines: [brokenEngine('flaky', 'fail'), testEngine({ name: 'backup' })],
      env: { ENGINES: 'tts-common=flaky|backup' },
      start: 'system',
    });
    const user = await t.createUser(100);
    const { taskId, credits: held } = await submit(t.app, user.token);
    const task = await t.waitForTask(taskId);
    expect(task.status).toBe('succeeded');
    expect(task.engine).toBe('backup');
    expect(task.credits_charged).toBe(held);
    await expectChargedOnce(t, user, held);
  });

  it('an engine past its own timeout (ENGINE_TIMEOUTS_MS) gives way to the next engine', async () => {
    t = await openApp({
      engines: [brokenEngine('slow', 'hang'), testEngine({ name: 'backup' })],
      env: { ENGINES: 'tts-common=slow|backup', ENGINE_TIMEOUTS_MS: 'slow=200' },
      start: 'system',
    });
    const user = await t.createUser(100);
    const task = await t.waitForTask((await submit(t.app, user.token)).taskId);
    expect(task.status).toBe('succeeded');
    expect(task.engine).toBe('backup');
  });

  it('a bad input is not retried on the fallback: it fails once and is refunded', async () => {
    let backupRuns = 0;
    const backup = testEngine({ name: 'backup' });
    const counting: Engine = { ...backup, run: (f, i, c) => (backupRuns++, backup.run(f, i, c)) };
    t = await openApp({
      engines: [brokenEngine('strict', 'input'), counting],
      env: { ENGINES: 'tts-common=strict|backup' },
      start: 'system',
    });
    const user = await t.createUser(100);
    await expectFailedAndRefunded(t, user, (await submit(t.app, user.token)).taskId, 'cannot be spoken');
    expect(backupRuns).toBe(0);
  });

  it('/healthz lists each feature with its engines in order', async () => {
    t = await openApp({
      engines: [brokenEngine('flaky', 'fail'), testEngine({ name: 'backup' })],
      env: { ENGINES: 'tts-common=flaky|backup' },
    });
    const body = (await (await t.app.request('/healthz')).json()) as {
      data: { features: Array<{ feature: string; served: boolean; engines: Array<{ name: string }> }> };
    };
    expect(body.data.features.find((f) => f.feature === 'tts-common')).toMatchObject({
      served: true,
      engines: [{ name: 'flaky' }, { name: 'backup' }],
    });
    expect(body.data.features.find((f) => f.feature === 'lipsync')).toMatchObject({
      served: true,
      engines: [{ name: 'preview' }],
    });
    expect(body.data.features.find((f) => f.feature === 'tryon-clothes')).toMatchObject({ served: false, engines: [] });
  });
});
