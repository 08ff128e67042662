// Preview engine: real MP4s checked with ffprobe (container, codec, size, length), default routing, labels, charges,
// refusal without ffmpeg.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTasksTestApp, createUser, creditState, waitForTask, type TasksTestApp } from '../test-support/tasks';
import {
  chargePrice,
  ENGINE_LABELS,
  ERROR_CODES,
  FEATURE_MESSAGES,
  PREVIEW,
  VIDEO_SIZES,
  voiceById,
} from '../../src/lib/product-rules';
import { synthesize } from './espeak';
import { wavSeconds } from './wav';
import type { Feature, MediaKind } from '../../src/lib/product-rules';
import type { EngineContext } from './types';
import { ffmpegTools, locateFfmpeg, probe, runTool } from '../tools';
import { probeMedia } from '../media/probe';
import { NO_FFMPEG_MESSAGE, previewEngine } from './preview';
import { memoryProviderJobs } from '../test-support/provider-jobs';

const tools = ffmpegTools();
const dir = mkdtempSync(path.join(tmpdir(), 'preview-test-'));
const fixtures: Record<string, { file: string; mime: string; kind: MediaKind; durationS: number | null }> = {
  image: { file: path.join(dir, 'still.png'), mime: 'image/png', kind: 'image', durationS: null },
  audio: { file: path.join(dir, 'voice.wav'), mime: 'audio/wav', kind: 'audio', durationS: 1.5 },
  video: { file: path.join(dir, 'face.mp4'), mime: 'video/mp4', kind: 'video', durationS: 1 },
  // A LAME MP3 starts with an Info header frame whose bitrate says nothing of the length.
  lame: { file: path.join(dir, 'voice.mp3'), mime: 'audio/mpeg', kind: 'audio', durationS: 5.96 },
};

beforeAll(async () => {
  expect(tools, 'ffmpeg must be found after npm ci').not.toBeNull();
  const ff = tools!.ffmpeg;
  await runTool(ff, ['-f', 'lavfi', '-i', 'testsrc=s=400x300:d=1', '-frames:v', '1', '-y', fixtures.image!.file]);
  await runTool(ff, ['-f', 'lavfi', '-i', 'sine=frequency=440:d=1.5', '-ac', '1', '-y', fixtures.audio!.file]);
  await runTool(ff, [
    '-f',
    'lavfi',
    '-i',
    'testsrc=s=320x240:r=24:d=1',
    '-pix_fmt',
    'yuv420p',
    '-y',
    fixtures.video!.file,
  ]);
  await runTool(ff, [
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:d=5.96',
    '-ac',
    '1',
    '-b:a',
    '32k',
    '-y',
    fixtures.lame!.file,
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A context whose inputs are the local fixtures, named by key instead of URL. */
function localContext(): EngineContext {
  return {
    signal: new AbortController().signal,
    taskId: 'test',
    providerJobs: memoryProviderJobs(),
    progress: async () => {},
    async readInput(url, kinds) {
      const f = fixtures[url]!;
      expect(kinds).toContain(f.kind);
      return { data: readFileSync(f.file), mime: f.mime, kind: f.kind, durationS: f.durationS, url };
    },
  };
}

async function probeBytes(data: Buffer) {
  const file = path.join(dir, `out-${Math.random().toString(36).slice(2)}.mp4`);
  writeFileSync(file, data);
  return probe(tools!.ffprobe!, file);
}

describe('preview engine output (ffprobe)', () => {
  const cases: Array<{
    feature: Feature;
    input: Record<string, unknown>;
    width: number;
    height: number;
    durationS: number;
    audio: boolean;
  }> = [
    {
      feature: 'text-to-video',
      input: { prompt: 'A red fox runs through 100% fresh snow', resolution: '512p', durationS: 2 },
      ...VIDEO_SIZES['512p']!,
      durationS: 2,
      audio: false,
    },
    {
      feature: 'image-to-video',
      input: { prompt: 'slow push in', imageUrl: 'image', resolution: '720p', durationS: 1 },
      ...VIDEO_SIZES['720p']!,
      durationS: 1,
      audio: false,
    },
    {
      feature: 'character-to-video',
      input: { prompt: 'Hi!', modelId: 'model-emma', resolution: '512p', durationS: 2 },
      ...VIDEO_SIZES['512p']!,
      durationS: 2,
      audio: true,
    },
    {
      feature: 'character-to-video',
      input: { prompt: ' ', modelId: 'model-james', resolution: '512p', durationS: 1 },
      ...VIDEO_SIZES['512p']!,
      durationS: 1,
      audio: false,
    },
    {
      feature: 'talking-image',
      input: { audioUrl: 'audio', photoUrl: 'image' },
      ...VIDEO_SIZES['720p']!,
      durationS: 1.5,
      audio: true,
    },
    {
      feature: 'lipsync',
      input: { srcVideoUrl: 'video', audioUrl: 'audio', videoParams: { video_width: 0, video_height: 0 } },
      width: 320,
      height: 240,
      durationS: 1.5,
      audio: true,
    },
    {
      feature: 'talking-face',
      input: { videoUrl: 'video', audioUrl: 'audio', videoParams: { video_width: 640, video_height: 360 } },
      width: 640,
      height: 360,
      durationS: 1.5,
      audio: true,
    },
  ];
  it.each(cases)('$feature makes an H.264 MP4 at $width×$height lasting $durationS s', async (c) => {
    const result = await previewEngine().run(c.feature, c.input, localContext());
    expect(result.outputs).toHaveLength(1);
    const out = result.outputs[0]!;
    expect(out).toMatchObject({ kind: 'video', mime: 'video/mp4' });
    const info = await probeBytes(out.data);
    expect(info.formatName).toContain('mp4');
    expect(info.video).toMatchObject({ codec: 'h264', width: c.width, height: c.height, pixFmt: 'yuv420p' });
    expect(info.audio).toEqual(c.audio ? { codec: 'aac' } : null);
    // The audio is looped/trimmed to exactly its own length (AAC frames may add a few ms).
    expect(Math.abs(info.durationS - c.durationS)).toBeLessThan(0.1);
    expect(out.durationS).toBe(info.durationS);
    // +faststart: the index (moov) comes before the media data so browsers play while downloading.
    expect(out.data.indexOf('moov')).toBeLessThan(out.data.indexOf('mdat'));
    expect(out.data.includes(Buffer.from(ENGINE_LABELS.preview))).toBe(true);
  });

  it('character to video speaks its script: a script longer than the clip asked for makes the clip as long as the speech', async () => {
    const script =
      'Hello, I am Daniel. This script is read aloud by the offline voice, so the preview clip is not silent.';
    const speechS = wavSeconds(await synthesize(script, voiceById(PREVIEW.characterVoices['model-daniel']!)!.espeak));
    expect(speechS).toBeGreaterThan(3);
    const result = await previewEngine().run(
      'character-to-video',
      { prompt: script, modelId: 'model-daniel', resolution: '512p', durationS: 1 },
      localContext(),
    );
    const file = path.join(dir, 'spoken.mp4');
    writeFileSync(file, result.outputs[0]!.data);
    const info = await probe(tools!.ffprobe!, file);
    expect(info.audio).toEqual({ codec: 'aac' });
    expect(Math.abs(info.durationS - speechS)).toBeLessThan(0.2);
    // The soundtrack is speech, not silence: its loudest sample is well above the noise floor.
    const { stderr } = await runTool(tools!.ffmpeg, [
      '-hide_banner',
      '-i',
      file,
      '-map',
      '0:a',
      '-af',
      'volumedetect',
      '-f',
      'null',
      '-',
    ]);
    expect(Number(/max_volume: (-?[\d.]+) dB/.exec(stderr)?.[1])).toBeGreaterThan(-20);
  });

  it('refuses an unknown sample model and a resolution it does not offer as input errors', async () => {
    await expect(
      previewEngine().run('character-to-video', { prompt: 'x', modelId: 'model-nobody' }, localContext()),
    ).rejects.toThrow(/unknown modelId/);
    await expect(
      previewEngine().run('text-to-video', { prompt: 'x', resolution: '4k' }, localContext()),
    ).rejects.toThrow(/not offered/);
  });
});

describe('finding ffmpeg', () => {
  it('uses FFMPEG_PATH, and finds nothing with neither it nor PATH', () => {
    expect(locateFfmpeg({ env: { PATH: '/nonexistent' } })).toBeNull();
    const fromEnv = locateFfmpeg({ env: { PATH: '/nonexistent', FFMPEG_PATH: tools!.ffmpeg } });
    expect(fromEnv).toMatchObject({ ffmpeg: tools!.ffmpeg, source: 'env' });
  });
});

let t: TasksTestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function post(app: TasksTestApp['app'], url: string, token: string, body: unknown) {
  const res = await app.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: any } };
}

async function upload(app: TasksTestApp['app'], token: string, key: keyof typeof fixtures): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([readFileSync(fixtures[key]!.file)]), 'f.bin');
  const res = await app.request('/api-playground/file/v1/upload', { method: 'POST', headers: { token }, body: form });
  const body = (await res.json()) as { data: { url: string } };
  expect(res.status).toBe(200);
  return body.data.url;
}

async function fetchOutput(app: TasksTestApp['app'], url: string): Promise<Buffer> {
  const res = await app.request(url.replace(/^https?:\/\/[^/]+/, ''));
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('preview engine behind the playground (default ENGINES)', () => {
  it('animate_video (text) runs on the preview engine, is labelled as no AI model, and charges the §9 price once', async () => {
    t = await createTasksTestApp();
    await t.system.start();
    const user = await createUser(t, 100);
    const r = await post(t.app, '/api-playground/video_tools/v1/animate_video', user.token, {
      type: 'text',
      prompt: 'a lighthouse at night',
      resolution: '512p',
      duration: 4,
    });
    expect(r.status).toBe(200);
    const task = await waitForTask(t, r.body.data.taskId);
    expect(task.status).toBe('succeeded');
    const poll = await post(t.app, '/api-playground/video_tools/v1/poll', user.token, { taskId: task.id });
    expect(poll.body.data).toMatchObject({
      engine: 'preview',
      engineLabel: 'preview engine (no AI model)',
      credits: 20,
    });
    const info = await probeBytes(await fetchOutput(t.app, poll.body.data.outputs[0].url));
    expect(info.video).toMatchObject({ codec: 'h264', width: 912, height: 512 });
    expect(Math.abs(info.durationS - 4)).toBeLessThan(0.1);
    const credits = await creditState(t, user.id);
    expect(credits.balance).toBe(80);
    expect(credits.ledgerSum).toBe(credits.balance);
  });

  it('talking_face with a photo is settled per second on the real length of the video made', async () => {
    t = await createTasksTestApp();
    await t.system.start();
    const user = await createUser(t, 100);
    const [imageUrl, audioUrl] = [await upload(t.app, user.token, 'image'), await upload(t.app, user.token, 'audio')];
    const r = await post(t.app, '/api-playground/talking_face/v1/create_task', user.token, { imageUrl, audioUrl });
    expect(r.status).toBe(200);
    const task = await waitForTask(t, r.body.data.taskId);
    expect(task.status, task.error ?? '').toBe('succeeded');
    const poll = await post(t.app, '/api-playground/video_tools/v1/poll', user.token, { taskId: task.id });
    const info = await probeBytes(await fetchOutput(t.app, poll.body.data.outputs[0].url));
    expect(info.audio).toEqual({ codec: 'aac' });
    const seconds = poll.body.data.outputs[0].durationS;
    const expected = chargePrice('talking-image', { seconds }, 'preview', t.config.tasks.noModelPrice);
    expect(expected).toBeGreaterThan(0);
    expect(task.credits_charged).toBe(expected);
    const credits = await creditState(t, user.id);
    expect(credits.balance).toBe(100 - expected);
    expect(credits.ledgerSum).toBe(credits.balance);
  });

  it('talking face with a sample character and a 5.96 s LAME MP3 lasts as long as the sound and charges 12 credits', async () => {
    t = await createTasksTestApp();
    await t.system.start();
    const user = await createUser(t, 100);
    const audioUrl = await upload(t.app, user.token, 'lame');
    const inputS = (await probeMedia(readFileSync(fixtures.lame!.file)))!.durationS!;
    expect(Math.abs(inputS - 5.96)).toBeLessThan(0.05);
    const r = await post(t.app, '/api-playground/talking_face/v1/create_task', user.token, {
      modelId: 'model-emma',
      audioUrl,
    });
    expect(r.status, r.body.msg).toBe(200);
    const task = await waitForTask(t, r.body.data.taskId, 60_000);
    expect(task.status, task.error ?? '').toBe('succeeded');
    const poll = await post(t.app, '/api-playground/video_tools/v1/poll', user.token, { taskId: task.id });
    const info = await probeBytes(await fetchOutput(t.app, poll.body.data.outputs[0].url));
    // An output is never shorter than its input audio.
    expect(info.durationS).toBeGreaterThanOrEqual(inputS - 0.05);
    expect(task.credits_charged).toBe(12);
    const credits = await creditState(t, user.id);
    expect(credits.balance).toBe(88);
    expect(credits.ledgerSum).toBe(credits.balance);
  }, 90_000);

  it('without ffmpeg the video features are refused at submit with a clear message, nothing charged; /healthz says why', async () => {
    t = await createTasksTestApp({ engines: [{ ...previewEngine({ tools: () => null }) }] });
    const user = await createUser(t, 100);
    const r = await post(t.app, '/api-playground/video_tools/v1/animate_video', user.token, {
      type: 'text',
      prompt: 'a cat',
      resolution: '512p',
      duration: 4,
    });
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
