// fal.ai adapter contract for video against a local fake of fal's queue API: submit, status, result, cancel, retries,
// webhooks; task and ledger end right.
import { readFileSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createUser, waitForTask } from '../../test-support/tasks';
import { submitTool, uploadMedia } from '../../test-support/customer-calls';
import { expectFailedAndRefunded, taskMedia } from '../../test-support/task-outcomes';
import { expectCharged } from '../../test-support/ledger';
import { listPrice } from '../../../src/lib/product-rules';
import { FAL_MODELS } from '../../../src/lib/product-rules';
import { probeMedia } from '../../media/probe';
import { falEngine } from './fal';
import { ownerDeletes, playgroundTask, providerCosts } from './adapter-tasks.fixtures';
import { PRICE, useFalFake } from './fal.fixtures';
import { falHookHeaders, falTestKey, startJwksServer } from './fal-webhook-signature.fixtures';

const fal = useFalFake();
const {
  media: { clip, voice },
  app,
  openApp,
  falConfig,
  submitText,
  submitted,
  uploaded,
} = fal;

describe('fal.ai adapter against a fake fal queue', () => {
  it('submits to the Wan model with mapped fields, follows status to COMPLETED, stores the video locally, charges once', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitText(t, user.apiKey));
    expect(task.status, task.error ?? '').toBe('succeeded');
    const submit = fal.fake.calls.find((c) => c.method === 'POST' && c.path === `/${FAL_MODELS.textToVideo}`)!;
    expect(submit.auth).toBe('Key test-key');
    expect(JSON.parse(submit.body)).toMatchObject({ prompt: 'a fox in snow', resolution: '720p' });
    expect(fal.fake.calls.filter((c) => c.path.endsWith('/status')).length).toBeGreaterThanOrEqual(2);
    const media = await taskMedia(t, task.id);
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({ kind: 'video', mime: 'video/mp4', size: readFileSync(clip).length });
    await expectCharged(t, user, PRICE);
    // The billable units fal reported, priced at the 720p list price (src/lib/product-rules/provider-costs.ts).
    expect(await providerCosts(t, task.id)).toEqual([
      { provider: 'fal', amount: 1, unit: 'fal-billing-units', usd: 0.4, estimated: 0 },
    ]);
  });

  it('Wan makes 512p at 480p; 8 s and 1080p clips, which it cannot make, go to the next engine, charged as asked', async () => {
    const t = await app({ ENGINES: 'text-to-video=fal|preview' });
    const user = await createUser(t, 500);
    const animate = async (duration: number, resolution: string) => {
      const id = await playgroundTask(t, user, 'video_tools/v1/animate_video', {
        type: 'text',
        prompt: 'a fox in snow',
        duration,
        resolution,
      });
      const task = await waitForTask(t, id);
      expect(task.status, task.error ?? '').toBe('succeeded');
      return task;
    };
    const small = await animate(4, '512p');
    expect(small.engine).toBe('fal');
    expect(
      JSON.parse(fal.fake.calls.find((c) => c.method === 'POST' && c.path === `/${FAL_MODELS.textToVideo}`)!.body),
    ).toMatchObject({ resolution: '480p' });
    const submitsBefore = fal.fake.calls.filter((c) => c.method === 'POST').length;
    for (const [duration, resolution] of [
      [8, '720p'],
      [4, '1080p'],
    ] as const) {
      const task = await animate(duration, resolution);
      expect(task.engine).toBe('preview');
      expect(task.credits_charged).toBe(listPrice('text-to-video', { durationS: duration, resolution }).credits);
    }
    expect(fal.fake.calls.filter((c) => c.method === 'POST').length).toBe(submitsBefore);
    // Two real preview renders (8 s at 720p, 4 s at 1080p) take several seconds on a busy 2-core machine.
  }, 60_000);

  it('a failed job (422 detail on the result) ends failed with the reason, refunded', async () => {
    fal.fake.mode = 'fail';
    const t = await app();
    const user = await createUser(t, 100);
    await expectFailedAndRefunded(t, user, await submitText(t, user.apiKey), 'flagged by the content checker');
  });

  it('a job past the engine timeout is canceled at fal, failed and refunded', async () => {
    fal.fake.mode = 'hang';
    const t = await app({ ENGINE_TIMEOUTS_MS: 'fal=1500' });
    const user = await createUser(t, 100);
    await expectFailedAndRefunded(t, user, await submitText(t, user.apiKey), 'timed out');
    await expect.poll(() => fal.fake.calls.some((c) => c.method === 'PUT' && c.path.endsWith('/cancel'))).toBe(true);
  });

  it('a task canceled by its owner cancels the fal job and is refunded', async () => {
    fal.fake.mode = 'hang';
    const t = await app();
    const user = await createUser(t, 100);
    const id = await submitText(t, user.apiKey);
    await expect.poll(() => fal.fake.calls.some((c) => c.path.endsWith('/status')), { timeout: 5000 }).toBe(true);
    await ownerDeletes(t, user, id);
    await expect
      .poll(() => fal.fake.calls.some((c) => c.method === 'PUT' && c.path.endsWith('/cancel')), { timeout: 5000 })
      .toBe(true);
    await expectCharged(t, user, 0);
  });

  it('malformed answers (HTML instead of JSON, a result with no file) fail the task clearly and refund it', async () => {
    for (const mode of ['malformed', 'no-output'] as const) {
      fal.fake.mode = mode;
      const t = await app();
      const user = await createUser(t, 100);
      await expectFailedAndRefunded(t, user, await submitText(t, user.apiKey), 'malformed answer');
      await t.close();
    }
  });

  it('a 429 with Retry-After is waited out and retried; the task succeeds, charged once', async () => {
    fal.fake.mode = 'rate-limited';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitText(t, user.apiKey));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(fal.fake.calls.filter((c) => c.method === 'POST' && c.path === `/${FAL_MODELS.textToVideo}`)).toHaveLength(
      2,
    );
    await expectCharged(t, user, PRICE);
  });

  it('lip sync uploads our local media to fal storage and is settled per second on the returned video', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const [srcVideoUrl, audioUrl] = [await uploadMedia(t, user, clip), await uploadMedia(t, user, voice)];
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'lipsync', { srcVideoUrl, audioUrl }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(fal.fake.uploads.size).toBe(2);
    const body = submitted(FAL_MODELS.lipsync);
    expect(uploaded(body.video_url)).toEqual(readFileSync(clip));
    expect(uploaded(body.audio_url)).toEqual(readFileSync(voice));
    expect(task.credits_charged).toBe(
      listPrice('lipsync', { seconds: (await probeMedia(readFileSync(clip)))!.durationS! }).credits,
    );
    await expectCharged(t, user, task.credits_charged!);
    // fal sent no billable units and no list price is recorded for this model: a call without a figure, flagged.
    expect(await providerCosts(t, task.id)).toEqual([
      { provider: 'fal', amount: 0, unit: 'usd', usd: null, estimated: 1 },
    ]);
  });
});

describe('fal webhooks wake the poller', () => {
  it('with ENGINE_WEBHOOK_URL set, each submit names our hook route for its task as fal_webhook', async () => {
    const t = await app({ ENGINE_WEBHOOK_URL: 'https://hooks.example.com/' });
    const user = await createUser(t, 100);
    const id = await submitText(t, user.apiKey);
    expect((await waitForTask(t, id)).status).toBe('succeeded');
    const submit = fal.fake.calls.find((c) => c.method === 'POST' && c.path === `/${FAL_MODELS.textToVideo}`)!;
    expect(new URLSearchParams(submit.query).get('fal_webhook')).toBe(
      `https://hooks.example.com/engine-hooks/fal/${id}`,
    );
  });

  it('a webhook wakes the poller: a job still running when the long poll interval starts ends with one status read after the hook', async () => {
    fal.fake.mode = 'hook';
    // The poll interval is far longer than the test may run, so only the webhook can wake the poller in time.
    const longPoll = { startMs: 10 * 60_000, factor: 1, maxMs: 10 * 60_000 };
    // Hooks to /engine-hooks/fal must carry fal's signature: a local key set stands in for fal's JWKS.
    const signingKey = falTestKey('fal');
    const jwks = await startJwksServer([signingKey]);
    onTestFinished(() => jwks.close());
    const t = await openApp({
      env: { ENGINES: 'text-to-video=fal', FAL_WEBHOOK_JWKS_URL: jwks.url },
      engines: [falEngine(falConfig({ webhookBaseUrl: 'https://hooks.example.com', poll: longPoll }))],
    });
    const user = await createUser(t, 100);
    const id = await submitText(t, user.apiKey);
    await expect
      .poll(() => [...fal.fake.statusCalls].some(([job, n]) => job.endsWith('hook') && n >= 1), { timeout: 5000 })
      .toBe(true);
    const jobId = [...fal.fake.statusCalls.keys()].find((job) => job.endsWith('hook'))!;
    fal.fake.released = true;
    // The hook may arrive before the poller has started waiting; fal retries it, and so does this test.
    const postHook = async () => {
      const body = JSON.stringify({ request_id: jobId, status: 'OK', payload: {} });
      const res = await t.app.request(`/engine-hooks/fal/${id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...falHookHeaders({ key: signingKey, body, requestId: jobId }) },
        body,
      });
      return ((await res.json()) as { msg: string }).msg;
    };
    await expect.poll(postHook, { timeout: 5000 }).toBe('ok');
    const task = await waitForTask(t, id);
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(fal.fake.statusCalls.get(jobId)).toBe(2);
    await expectCharged(t, user, PRICE);
    expect(await postHook()).toBe('no job waiting');
  });
});
