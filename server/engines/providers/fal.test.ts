// fal.ai adapter contract: a local fake of fal's queue API (submit, status, result, cancel, storage, webhooks); task and ledger end right.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, waitForTask, type TasksTestApp } from '../../test-support/tasks';
import { expectCharged, expectFailedAndRefunded, listenLocal, postPlayground, readBody, sendFile, sendJson, sendProxyErrorPage, sineAudio, stillImage, submitTool, taskMedia, videoClip, uploadMedia, useTestMedia, useTestApps, withMode, type LocalServer } from '../../test-support/provider-fakes';
import { estimateCredits } from '../../tasks';
import { FAL_IMAGE_SIZES, FAL_MODELS } from '../../../src/lib/spec/engines';
import { probeMedia } from '../../media/probe';
import type { EngineContext } from '../types';
import { falEngine, falLipSync, type FalConfig } from './fal';

/** How the next job behaves; 'one-image' answers a single image whatever was asked, 'hook' completes only once released. */
type Mode = 'ok' | 'fail' | 'hang' | 'malformed' | 'rate-limited' | 'no-output' | 'one-image' | 'hook';

interface Call {
  method: string;
  path: string;
  query: string;
  auth: string | undefined;
  body: string;
}

/** The fake: records every call; `mode` decides how the next job behaves. */
interface Fake extends LocalServer {
  mode: Mode;
  calls: Call[];
  /** Bytes PUT to fal storage, by the upload id that ends the file URL it answered. */
  uploads: Map<string, Buffer>;
  /** Status reads per request id. */
  statusCalls: Map<string, number>;
  /** A 'hook' job reports COMPLETED only after this is set. */
  released: boolean;
}

const { clip, longClip, voice, picture, mask } = useTestMedia('fal-test-', {
  clip: videoClip('clip.mp4', 1),
  longClip: videoClip('long.mp4', 2),
  voice: sineAudio('voice.wav', 1),
  picture: stillImage('picture.png'),
  mask: stillImage('mask.png', 'color=c=white:s=64x64'),
});
let fake: Fake;

/** What fal answers a finished job with, by model (each model's documented result shape). */
function resultOf(base: string, model: string, body: Record<string, unknown>, mode: Mode): Record<string, unknown> {
  const image = (n: number) => ({ url: `${base}/files/img-${n}.png`, content_type: 'image/png' });
  if (model === FAL_MODELS.imageGeneration) {
    const count = mode === 'one-image' ? 1 : Number(body.num_images ?? 1);
    return { images: Array.from({ length: count }, (_, n) => image(n)), seed: 7 };
  }
  if ([FAL_MODELS.erase, FAL_MODELS.faceSwap, FAL_MODELS.restore, FAL_MODELS.tryOn].includes(model as never)) return { image: image(0) };
  // Matting answers a longer video than its input so a per-second charge on the output is told apart from one on the input.
  if (model === FAL_MODELS.videoMatting) return { video: { url: `${base}/files/long.mp4`, content_type: 'video/mp4' } };
  return { video: { url: `${base}/files/out.mp4`, content_type: 'video/mp4' }, seed: 42 };
}

async function startFake(): Promise<Fake> {
  const state = { mode: 'ok' as Mode, released: false, rateLimited: 0, uploadSeq: 0 };
  const calls: Call[] = [];
  const uploads = new Map<string, Buffer>();
  const statusCalls = new Map<string, number>();
  const jobs = new Map<string, { model: string; body: Record<string, unknown>; mode: Mode }>();
  const local = await listenLocal(async (req, res, base) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    calls.push({ method: req.method ?? '', path: url.pathname, query: url.search, auth: req.headers.authorization, body: body.toString('latin1').slice(0, 2000) });
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => sendJson(res, status, value, headers);
    if (req.headers.authorization !== 'Key test-key' && !url.pathname.startsWith('/files/') && !url.pathname.startsWith('/upload/')) return send(401, { detail: 'Invalid key' });
    if (req.method === 'POST' && url.pathname === '/storage/upload/initiate') {
      const id = `u${state.uploadSeq++}`;
      return send(200, { upload_url: `${base}/upload/${id}`, file_url: `${base}/files/${id}` });
    }
    if (req.method === 'PUT' && url.pathname.startsWith('/upload/')) {
      uploads.set(url.pathname.slice('/upload/'.length), body);
      return send(200, {});
    }
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      const name = url.pathname.slice('/files/'.length);
      const [type, file] = name.startsWith('img-') ? ['image/png', picture] : name === 'long.mp4' ? ['video/mp4', longClip] : ['video/mp4', clip];
      return sendFile(res, file, type);
    }
    const job = /^\/(.+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(url.pathname);
    if (req.method === 'POST' && !job) {
      if (state.mode === 'malformed') return sendProxyErrorPage(res);
      if (state.mode === 'rate-limited' && state.rateLimited++ === 0) return send(429, { detail: 'Too many requests' }, { 'retry-after': '1' });
      const id = `req-${calls.length}-${state.mode}`;
      const model = url.pathname.slice(1);
      jobs.set(id, { model, body: JSON.parse(body.toString() || '{}') as Record<string, unknown>, mode: state.mode });
      return send(200, { request_id: id, status_url: `${base}/${model}/requests/${id}/status`, response_url: `${base}/${model}/requests/${id}`, cancel_url: `${base}/${model}/requests/${id}/cancel`, queue_position: 0 });
    }
    if (job && req.method === 'PUT' && job[3] === '/cancel') return send(202, { status: 'CANCELLATION_REQUESTED' });
    if (job && req.method === 'GET' && job[3] === '/status') {
      const id = job[2]!;
      const n = (statusCalls.get(id) ?? 0) + 1;
      statusCalls.set(id, n);
      if (id.endsWith('hang')) return send(200, { status: n === 1 ? 'IN_QUEUE' : 'IN_PROGRESS', queue_position: 0 });
      if (id.endsWith('hook')) return send(200, { status: state.released ? 'COMPLETED' : 'IN_PROGRESS' });
      return send(200, n === 1 ? { status: 'IN_PROGRESS', logs: [] } : { status: 'COMPLETED' });
    }
    if (job && req.method === 'GET') {
      const known = jobs.get(job[2]!);
      if (known?.mode === 'fail') return send(422, { detail: [{ loc: ['body', 'prompt'], msg: 'prompt was flagged by the content checker' }] });
      if (known?.mode === 'no-output') return send(200, { seed: 4 });
      return send(200, resultOf(base, known?.model ?? '', known?.body ?? {}, known?.mode ?? 'ok'));
    }
    send(404, { detail: 'not found' });
  });
  return withMode(
    {
      ...local,
      get released() {
        return state.released;
      },
      set released(r: boolean) {
        state.released = r;
      },
      calls,
      uploads,
      statusCalls,
    },
    state,
  );
}

beforeAll(async () => {
  fake = await startFake();
});
afterAll(() => fake.close());

const openApp = useTestApps(() => {
  fake.calls.length = 0;
  fake.uploads.clear();
  fake.released = false;
  fake.mode = 'ok';
});

const FAL_FEATURES = ['text-to-video', 'lipsync', 'image-generation', 'erase', 'face-swap', 'restore', 'video-matting'];
const falConfig = (extra: Partial<FalConfig> = {}): FalConfig => ({ key: 'test-key', queueUrl: fake.url, storageUrl: fake.url, webhookBaseUrl: null, ...extra });

async function app(extra: Record<string, string> = {}) {
  return openApp({ env: { FAL_KEY: 'test-key', FAL_QUEUE_URL: fake.url, FAL_STORAGE_URL: fake.url, ENGINES: FAL_FEATURES.map((f) => `${f}=fal`).join(','), ...extra } });
}

const submitText = (t: TasksTestApp, apiKey: string, prompt = 'a fox in snow') => submitTool(t, apiKey, 'text2video', { prompt });

/** The JSON body the model was submitted with. */
function submitted(model: string): Record<string, unknown> {
  const call = fake.calls.find((c) => c.method === 'POST' && c.path === `/${model}`);
  expect(call, `no submit to ${model}`).toBeDefined();
  return JSON.parse(call!.body) as Record<string, unknown>;
}

/** The bytes behind a fal storage file URL we sent (so a field is checked to carry the right upload). */
function uploaded(fileUrl: unknown): Buffer | undefined {
  return fake.uploads.get(String(fileUrl).split('/files/')[1] ?? '');
}

const PRICE = estimateCredits('text-to-video', {}).credits;

describe('fal.ai adapter against a fake fal queue', () => {
  it('submits to the Wan model with mapped fields, follows status to COMPLETED, stores the video locally, charges once', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitText(t, user.apiKey));
    expect(task.status, task.error ?? '').toBe('succeeded');
    const submit = fake.calls.find((c) => c.method === 'POST' && c.path === `/${FAL_MODELS.textToVideo}`)!;
    expect(submit.auth).toBe('Key test-key');
    expect(JSON.parse(submit.body)).toMatchObject({ prompt: 'a fox in snow', resolution: '720p' });
    expect(fake.calls.filter((c) => c.path.endsWith('/status')).length).toBeGreaterThanOrEqual(2);
    const media = await taskMedia(t, task.id);
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({ kind: 'video', mime: 'video/mp4', size: readFileSync(clip).length });
    await expectCharged(t, user, PRICE);
  });

  it('Wan makes 512p at 480p; 8 s and 1080p clips, which it cannot make, go to the next engine, charged as asked', async () => {
    const t = await app({ ENGINES: 'text-to-video=fal|preview' });
    const user = await createUser(t, 500);
    const animate = async (duration: number, resolution: string) => {
      const res = await postPlayground(t, user, 'video_tools/v1/animate_video', { type: 'text', prompt: 'a fox in snow', duration, resolution });
      const task = await waitForTask(t, ((await res.json()) as { data: { taskId: string } }).data.taskId);
      expect(task.status, task.error ?? '').toBe('succeeded');
      return task;
    };
    const small = await animate(4, '512p');
    expect(small.engine).toBe('fal');
    expect(JSON.parse(fake.calls.find((c) => c.method === 'POST' && c.path === `/${FAL_MODELS.textToVideo}`)!.body)).toMatchObject({ resolution: '480p' });
    const submitsBefore = fake.calls.filter((c) => c.method === 'POST').length;
    for (const [duration, resolution] of [[8, '720p'], [4, '1080p']] as const) {
      const task = await animate(duration, resolution);
      expect(task.engine).toBe('preview');
      expect(task.credits_charged).toBe(estimateCredits('text-to-video', { durationS: duration, resolution }).credits);
    }
    expect(fake.calls.filter((c) => c.method === 'POST').length).toBe(submitsBefore);
    // Two real preview renders (8 s at 720p, 4 s at 1080p) take several seconds on a busy 2-core machine.
  }, 60_000);

  it('a failed job (422 detail on the result) ends failed with the reason, refunded', async () => {
    fake.mode = 'fail';
    const t = await app();
    const user = await createUser(t, 100);
    await expectFailedAndRefunded(t, user, await submitText(t, user.apiKey), 'flagged by the content checker');
  });

  it('a job past the engine timeout is canceled at fal, failed and refunded', async () => {
    fake.mode = 'hang';
    const t = await app({ ENGINE_TIMEOUTS_MS: 'fal=1500' });
    const user = await createUser(t, 100);
    await expectFailedAndRefunded(t, user, await submitText(t, user.apiKey), 'timed out');
    await expect.poll(() => fake.calls.some((c) => c.method === 'PUT' && c.path.endsWith('/cancel'))).toBe(true);
  });

  it('a task canceled by its owner cancels the fal job and is refunded', async () => {
    fake.mode = 'hang';
    const t = await app();
    const user = await createUser(t, 100);
    const id = await submitText(t, user.apiKey);
    await expect.poll(() => fake.calls.some((c) => c.path.endsWith('/status')), { timeout: 5000 }).toBe(true);
    const res = await postPlayground(t, user, 'video_tools/v1/delete', { taskId: id });
    expect(res.status).toBe(200);
    await expect.poll(() => fake.calls.some((c) => c.method === 'PUT' && c.path.endsWith('/cancel')), { timeout: 5000 }).toBe(true);
    await expectCharged(t, user, 0);
  });

  it('malformed answers (HTML instead of JSON, a result with no file) fail the task clearly and refund it', async () => {
    for (const mode of ['malformed', 'no-output'] as const) {
      fake.mode = mode;
      const t = await app();
      const user = await createUser(t, 100);
      await expectFailedAndRefunded(t, user, await submitText(t, user.apiKey), 'malformed answer');
      await t.close();
    }
  });

  it('a 429 with Retry-After is waited out and retried; the task succeeds, charged once', async () => {
    fake.mode = 'rate-limited';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitText(t, user.apiKey));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(fake.calls.filter((c) => c.method === 'POST' && c.path === `/${FAL_MODELS.textToVideo}`)).toHaveLength(2);
    await expectCharged(t, user, PRICE);
  });

  it('lip sync uploads our local media to fal storage and is settled per second on the returned video', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const [srcVideoUrl, audioUrl] = [await uploadMedia(t, user, clip), await uploadMedia(t, user, voice)];
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'lipsync', { srcVideoUrl, audioUrl }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(fake.uploads.size).toBe(2);
    const body = submitted(FAL_MODELS.lipsync);
    expect(uploaded(body.video_url)).toEqual(readFileSync(clip));
    expect(uploaded(body.audio_url)).toEqual(readFileSync(voice));
    expect(task.credits_charged).toBe(estimateCredits('lipsync', { seconds: (await probeMedia(readFileSync(clip)))!.durationS! }).credits);
    await expectCharged(t, user, task.credits_charged!);
  });
});

describe('fal.ai image and video tools', () => {
  it('image generation asks FLUX for count images at the mapped image_size, stores every image and charges per image', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'image_generation', { prompt: 'a lighthouse at dusk', count: 2, aspectRatio: '16:9', seed: 5 }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(submitted(FAL_MODELS.imageGeneration)).toEqual({ prompt: 'a lighthouse at dusk', num_images: 2, image_size: FAL_IMAGE_SIZES['16:9'], seed: 5 });
    const media = await taskMedia(t, task.id);
    expect(media).toHaveLength(2);
    expect(media.every((m) => m.kind === 'image' && m.mime === 'image/png')).toBe(true);
    const perImage = estimateCredits('image-generation', { count: 1 }).credits;
    expect(task.credits_charged).toBe(2 * perImage);
    await expectCharged(t, user, 2 * perImage);
  });

  it('image generation is charged only for the images fal returned when it makes fewer than asked', async () => {
    fake.mode = 'one-image';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'image_generation', { prompt: 'a lighthouse at dusk', count: 2 }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(submitted(FAL_MODELS.imageGeneration)).toMatchObject({ num_images: 2, image_size: FAL_IMAGE_SIZES['1:1'] });
    expect(await taskMedia(t, task.id)).toHaveLength(1);
    const perImage = estimateCredits('image-generation', { count: 1 }).credits;
    expect(task.credits_charged).toBe(perImage);
    await expectCharged(t, user, perImage);
  });

  const imageTools = [
    { tool: 'erase', feature: 'erase', model: FAL_MODELS.erase, inputs: { imageUrl: picture, maskUrl: mask }, fields: { image_url: picture, mask_url: mask } },
    { tool: 'face_swap', feature: 'face-swap', model: FAL_MODELS.faceSwap, inputs: { imageUrl: picture, faceImageUrl: mask }, fields: { target_image_url: picture, source_face_url: mask } },
    { tool: 'restore', feature: 'restore', model: FAL_MODELS.restore, inputs: { imageUrl: picture }, fields: { image_url: picture } },
  ] as const;

  it.each(imageTools)('$tool uploads our images to fal storage, sends each under its model field, stores the image and charges the flat price', async ({ tool, feature, model, inputs, fields }) => {
    const t = await app();
    const user = await createUser(t, 100);
    const body: Record<string, string> = {};
    for (const [name, file] of Object.entries(inputs)) body[name] = await uploadMedia(t, user, file);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, tool, body));
    expect(task.status, task.error ?? '').toBe('succeeded');
    const sent = submitted(model);
    expect(Object.keys(sent).sort()).toEqual(Object.keys(fields).sort());
    for (const [field, file] of Object.entries(fields)) expect(uploaded(sent[field]), field).toEqual(readFileSync(file));
    expect(fake.uploads.size).toBe(Object.keys(inputs).length);
    const media = await taskMedia(t, task.id);
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({ kind: 'image', mime: 'image/png' });
    const price = estimateCredits(feature, {}).credits;
    expect(task.credits_charged).toBe(price);
    await expectCharged(t, user, price);
  });

  it('video matting is settled per second of the video fal returned, not of the input', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'video_matting', { videoUrl: await uploadMedia(t, user, clip) }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    const sent = submitted(FAL_MODELS.videoMatting);
    expect(uploaded(sent.video_url)).toEqual(readFileSync(clip));
    expect(sent.background_color).toEqual([0, 255, 0]);
    const media = await taskMedia(t, task.id);
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({ kind: 'video', mime: 'video/mp4', size: readFileSync(longClip).length });
    const outputS = (await probeMedia(readFileSync(longClip)))!.durationS!;
    expect(outputS).toBeGreaterThan((await probeMedia(readFileSync(clip)))!.durationS!);
    expect(task.credits_charged).toBe(estimateCredits('video-matting', { seconds: outputS }).credits);
    await expectCharged(t, user, task.credits_charged!);
  });
});

describe('falLipSync (dubbing with lip sync chains it)', () => {
  it('uploads the given video and audio bytes to fal storage, runs the lip-sync model on them and returns its video', async () => {
    const video = { data: readFileSync(clip), mime: 'video/mp4' };
    const audio = { data: readFileSync(voice), mime: 'audio/wav' };
    const ctx: EngineContext = {
      signal: new AbortController().signal,
      progress: async () => {},
      readInput: () => Promise.reject(new Error('lip sync from bytes reads no input URL')),
      taskId: 'dub-task-1',
    };
    const out = await falLipSync(falConfig({ poll: { startMs: 10, factor: 1, maxMs: 10 } }))(video, audio, ctx);
    expect(fake.uploads.size).toBe(2);
    const sent = submitted(FAL_MODELS.lipsync);
    expect(uploaded(sent.video_url)).toEqual(video.data);
    expect(uploaded(sent.audio_url)).toEqual(audio.data);
    expect(out).toMatchObject({ kind: 'video', mime: 'video/mp4' });
    expect(out.data).toEqual(readFileSync(clip));
    expect(out.durationS).toBe((await probeMedia(readFileSync(clip)))!.durationS);
  });
});

describe('fal webhooks wake the poller', () => {
  it('with ENGINE_WEBHOOK_URL set, each submit names our hook route for its task as fal_webhook', async () => {
    const t = await app({ ENGINE_WEBHOOK_URL: 'https://hooks.example.com/' });
    const user = await createUser(t, 100);
    const id = await submitText(t, user.apiKey);
    expect((await waitForTask(t, id)).status).toBe('succeeded');
    const submit = fake.calls.find((c) => c.method === 'POST' && c.path === `/${FAL_MODELS.textToVideo}`)!;
    expect(new URLSearchParams(submit.query).get('fal_webhook')).toBe(`https://hooks.example.com/engine-hooks/fal/${id}`);
  });

  it('a webhook wakes the poller: a job still running when the long poll interval starts ends with one status read after the hook', async () => {
    fake.mode = 'hook';
    // The poll interval is far longer than the test may run, so only the webhook can wake the poller in time.
    const longPoll = { startMs: 10 * 60_000, factor: 1, maxMs: 10 * 60_000 };
    const t = await openApp({ env: { ENGINES: 'text-to-video=fal' }, engines: [falEngine(falConfig({ webhookBaseUrl: 'https://hooks.example.com', poll: longPoll }))] });
    const user = await createUser(t, 100);
    const id = await submitText(t, user.apiKey);
    await expect.poll(() => [...fake.statusCalls].some(([job, n]) => job.endsWith('hook') && n >= 1), { timeout: 5000 }).toBe(true);
    const jobId = [...fake.statusCalls.keys()].find((job) => job.endsWith('hook'))!;
    fake.released = true;
    // The hook may arrive before the poller has started waiting; fal retries it, and so does this test.
    const postHook = async () => {
      const res = await t.app.request(`/engine-hooks/fal/${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ request_id: jobId, status: 'OK', payload: {} }) });
      return ((await res.json()) as { msg: string }).msg;
    };
    await expect.poll(postHook, { timeout: 5000 }).toBe('ok');
    const task = await waitForTask(t, id);
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(fake.statusCalls.get(jobId)).toBe(2);
    await expectCharged(t, user, PRICE);
    expect(await postHook()).toBe('no job waiting');
  });
});
