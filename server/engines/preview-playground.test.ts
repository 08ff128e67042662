// The preview engine behind the playground with the default ENGINES: labels, charges on the real length, and the
// refusal without ffmpeg.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTasksTestApp,
  createUser,
  creditState,
  uploadAs,
  waitForTask,
  type TasksTestApp,
  type TestUser,
} from '../test-support/tasks';
import { postJson } from '../test-support/post-json';
import { chargePrice, ERROR_CODES, FEATURE_MESSAGES } from '../../src/lib/product-rules';
import { probeMedia } from '../media/probe';
import { NO_FFMPEG_MESSAGE, previewEngine } from './preview';
import { usePreviewMedia } from './preview.fixtures';

const { inputs, probeBytes } = usePreviewMedia();

let opened: TasksTestApp | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

const post = (app: TasksTestApp['app'], url: string, token: string, body: unknown) =>
  postJson(app, url, body, { token });

/** Uploads one of the inputs through the playground; its URL. */
async function upload(t: TasksTestApp, user: TestUser, key: keyof typeof inputs): Promise<string> {
  const { file, mime } = inputs[key]!;
  return (await uploadAs(t, user, readFileSync(file), path.basename(file), mime)).url;
}

/** A test app (closed after the test), its task system started unless `start` is false, and a user with 100 credits. */
async function appAndUser(options: Parameters<typeof createTasksTestApp>[0] = {}, start = true) {
  const t = (opened = await createTasksTestApp(options));
  if (start) await t.system.start();
  return { t, user: await createUser(t, 100) };
}

/** Asks the playground for a 4 s, 512p clip of `prompt`. */
const animateText = (t: TasksTestApp, user: TestUser, prompt: string) =>
  post(t.app, '/api-playground/video_tools/v1/animate_video', user.token, {
    type: 'text',
    prompt,
    resolution: '512p',
    duration: 4,
  });

/** A finished task as the playground's poll shows it, and ffprobe's reading of its first output. */
async function polled(t: TasksTestApp, user: TestUser, taskId: string) {
  const poll = await post(t.app, '/api-playground/video_tools/v1/poll', user.token, { taskId });
  const res = await t.app.request(poll.body.data.outputs[0].url.replace(/^https?:\/\/[^/]+/, ''));
  expect(res.status).toBe(200);
  return { data: poll.body.data, info: await probeBytes(Buffer.from(await res.arrayBuffer())) };
}

describe('preview engine behind the playground (default ENGINES)', () => {
  it('animate_video (text) runs on the preview engine, is labelled as no AI model, and charges the §9 price once', async () => {
    const { t, user } = await appAndUser();
    const r = await animateText(t, user, 'a lighthouse at night');
    expect(r.status).toBe(200);
    const task = await waitForTask(t, r.body.data.taskId);
    expect(task.status).toBe('succeeded');
    const { data, info } = await polled(t, user, task.id);
    expect(data).toMatchObject({ engine: 'preview', engineLabel: 'preview engine (no AI model)', credits: 20 });
    expect(info.video).toMatchObject({ codec: 'h264', width: 912, height: 512 });
    expect(Math.abs(info.durationS - 4)).toBeLessThan(0.1);
    const credits = await creditState(t, user.id);
    expect(credits.balance).toBe(80);
    expect(credits.ledgerSum).toBe(credits.balance);
  });

  it('talking_face with a photo is settled per second on the real length of the video made', async () => {
    const { t, user } = await appAndUser();
    const [imageUrl, audioUrl] = [await upload(t, user, 'image'), await upload(t, user, 'audio')];
    const r = await post(t.app, '/api-playground/talking_face/v1/create_task', user.token, { imageUrl, audioUrl });
    expect(r.status).toBe(200);
    const task = await waitForTask(t, r.body.data.taskId);
    expect(task.status, task.error ?? '').toBe('succeeded');
    const { data, info } = await polled(t, user, task.id);
    expect(info.audio).toEqual({ codec: 'aac' });
    const seconds = data.outputs[0].durationS;
    const expected = chargePrice('talking-image', { seconds }, 'preview', t.config.tasks.noModelPrice);
    expect(expected).toBeGreaterThan(0);
    expect(task.credits_charged).toBe(expected);
    const credits = await creditState(t, user.id);
    expect(credits.balance).toBe(100 - expected);
    expect(credits.ledgerSum).toBe(credits.balance);
  });

  it('talking face with a sample character and a 5.96 s LAME MP3 lasts as long as the sound and charges 12 credits', async () => {
    const { t, user } = await appAndUser();
    const audioUrl = await upload(t, user, 'lame');
    const inputS = (await probeMedia(readFileSync(inputs.lame!.file)))!.durationS!;
    expect(Math.abs(inputS - 5.96)).toBeLessThan(0.05);
    const r = await post(t.app, '/api-playground/talking_face/v1/create_task', user.token, {
      modelId: 'model-emma',
      audioUrl,
    });
    expect(r.status, r.body.msg).toBe(200);
    const task = await waitForTask(t, r.body.data.taskId, 60_000);
    expect(task.status, task.error ?? '').toBe('succeeded');
    const { info } = await polled(t, user, task.id);
    // An output is never shorter than its input audio.
    expect(info.durationS).toBeGreaterThanOrEqual(inputS - 0.05);
    expect(task.credits_charged).toBe(12);
    const credits = await creditState(t, user.id);
    expect(credits.balance).toBe(88);
    expect(credits.ledgerSum).toBe(credits.balance);
  }, 90_000);

  it('without ffmpeg the video features are refused at submit with a clear message, nothing charged; /healthz says why', async () => {
    const { t, user } = await appAndUser({ engines: [{ ...previewEngine({ tools: () => null }) }] }, false);
    const r = await animateText(t, user, 'a cat');
    // People and API callers are told the feature is not available here; what to install is for the operator (log,
    // /healthz).
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: ERROR_CODES.featureUnavailable, msg: FEATURE_MESSAGES.unavailable });
    expect((await creditState(t, user.id)).balance).toBe(100);
    const health = (await (await t.app.request('/healthz')).json()) as {
      data: {
        features: Array<{ feature: string; served: boolean; engines: Array<{ name: string; reason: string | null }> }>;
      };
    };
    const ttv = health.data.features.find((f) => f.feature === 'text-to-video')!;
    expect(ttv).toMatchObject({ served: false, engines: [{ name: 'preview', reason: NO_FFMPEG_MESSAGE }] });
    expect(health.data.features.find((f) => f.feature === 'tts-common')).toMatchObject({
      served: true,
      engines: [{ name: 'espeak' }],
    });
  });
});
