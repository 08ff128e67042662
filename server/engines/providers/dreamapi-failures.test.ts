// DreamAPI upstream contract for what goes wrong, against a local fake of DreamAPI: failed, hung, canceled and
// malformed jobs, rate limits, refused keys, fallbacks; refunded right.
import { describe, expect, it } from 'vitest';
import { createUser, creditState, waitForTask } from '../../test-support/tasks';
import { expectFailedAndRefunded, taskMedia } from '../../test-support/task-outcomes';
import { expectCharged, expectChargedOnce } from '../../test-support/ledger';
import { PROVIDER_UNAVAILABLE } from '../../../src/lib/product-rules';
import { ownerDeletes, playgroundTask } from './adapter-tasks.fixtures';
import { ALL, WAN_480, useDreamApiFake } from './dreamapi.fixtures';

const dream = useDreamApiFake();
const { app, openApp, submitWan, submits, pollsOf } = dream;

describe('DreamAPI upstream failures against a fake DreamAPI', { timeout: 30_000 }, () => {
  it('a job that ends with status 4 fails the task with the upstream reason and refunds it', async () => {
    dream.fake.mode = 'fail';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await expectFailedAndRefunded(t, user, await submitWan(t, user), 'no face was detected in the image');
    expect(task.error).toContain('code 60011');
    expect(task.error).not.toContain('up-');
  });

  it('a job still at status 2 past the engine deadline fails "timed out" and is refunded', async () => {
    dream.fake.mode = 'hang';
    const t = await app({ ENGINE_TIMEOUTS_MS: 'dreamapi=1500' });
    const user = await createUser(t, 100);
    await expectFailedAndRefunded(t, user, await submitWan(t, user), 'timed out');
  });

  it('a task canceled by its owner is refunded and stops polling DreamAPI (which has no cancel)', async () => {
    dream.fake.mode = 'hang';
    // One dreamapi slot: the next task can only start once the canceled run has returned.
    const t = await app({ ENGINE_CONCURRENCY: 'dreamapi=1' });
    const user = await createUser(t, 100);
    const id = await submitWan(t, user);
    await expect.poll(() => pollsOf('up-1'), { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    await ownerDeletes(t, user, id);
    await expect.poll(async () => (await creditState(t, user.id)).balance, { timeout: 5000 }).toBe(100);
    await expectCharged(t, user, 0);

    dream.fake.mode = 'ok';
    const next = await waitForTask(t, await submitWan(t, user));
    expect(next.status, next.error ?? '').toBe('succeeded');
    const frozen = pollsOf('up-1');
    await expect.poll(() => pollsOf('up-1'), { timeout: 1500, interval: 300 }).toBe(frozen);
    expect(dream.fake.calls.filter((c) => c.path === '/api/getAsyncResult' && c.body.taskId === 'up-1')).toHaveLength(
      frozen,
    );
    await expectCharged(t, user, WAN_480);
  });

  it('malformed answers (HTML, no taskId, success without files) fail the task as "malformed answer" and refund it', async () => {
    for (const mode of ['html', 'no-task-id', 'no-output'] as const) {
      dream.fake.mode = mode;
      const t = await app();
      const user = await createUser(t, 100);
      await expectFailedAndRefunded(t, user, await submitWan(t, user), 'malformed answer');
      await t.close();
    }
  });

  it('a 429 with Retry-After is waited out and retried; the task succeeds, charged once', async () => {
    dream.fake.mode = 'rate-limited';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitWan(t, user));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(submits('wan/text_to_video/2.1')).toHaveLength(2);
    expect(await taskMedia(t, task.id)).toHaveLength(1);
    await expectChargedOnce(t, user, WAN_480);
  });

  it('10192 Illegal parameter fails the task with the upstream message and refunds it, without trying a fallback', async () => {
    dream.fake.mode = 'illegal';
    const t = await app({ ENGINES: 'wan-text-to-video=dreamapi|preview' });
    const user = await createUser(t, 100);
    const task = await expectFailedAndRefunded(
      t,
      user,
      await submitWan(t, user),
      'Illegal parameter: prompt contains forbidden words',
    );
    expect(task.engine).toBe('dreamapi');
  });

  it('a refused API key fails the task as DreamAPI unavailable, naming no key, refunded', async () => {
    const t = await openApp({ env: { DREAMAPI_KEY: 'wrong-key', DREAMAPI_BASE_URL: dream.fake.url, ENGINES: ALL } });
    const user = await createUser(t, 100);
    const task = await expectFailedAndRefunded(
      t,
      user,
      await submitWan(t, user),
      PROVIDER_UNAVAILABLE.message('DreamAPI'),
    );
    expect(task.error).not.toMatch(/key|config/i);
  });

  it('character to video with a sample model cannot be served upstream: failed with the reason, refunded, nothing submitted', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const id = await playgroundTask(t, user, 'video_tools/v1/animate_video', {
      type: 'character',
      prompt: 'waves hello',
      modelId: 'model-emma',
    });
    await expectFailedAndRefunded(t, user, id, 'cannot use a sample model');
    expect(dream.fake.calls.filter((c) => c.path.startsWith('/api/async/'))).toHaveLength(0);
  });

  it("a sample model is not the user's fault: with the preview engine behind DreamAPI it is drawn there, charged once", async () => {
    const t = await app({ ENGINES: 'character-to-video=dreamapi|preview' });
    const user = await createUser(t, 100);
    const id = await playgroundTask(t, user, 'video_tools/v1/animate_video', {
      type: 'character',
      prompt: 'waves hello',
      modelId: 'model-emma',
      resolution: '512p',
    });
    const task = await waitForTask(t, id);
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(task.engine).toBe('preview');
    expect(dream.fake.calls.filter((c) => c.path.startsWith('/api/async/'))).toHaveLength(0);
    await expectCharged(t, user, task.credits_charged!);
  });

  it('with a fallback configured, an upstream failing mid-way hands the task to the preview engine: succeeded, charged once', async () => {
    dream.fake.mode = 'fail';
    const t = await app({ ENGINES: 'wan-text-to-video=dreamapi|preview' });
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitWan(t, user));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(task.engine).toBe('preview');
    expect(pollsOf('up-1')).toBe(2);
    expect(await taskMedia(t, task.id)).toHaveLength(1);
    expect(task.credits_charged).toBe(WAN_480);
    await expectChargedOnce(t, user, WAN_480);
  });
});
