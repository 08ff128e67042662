// Advanced settings end to end on the server: the features answer lists what each serving engine honours, both APIs
// validate and store them, refuse one the engine does not honour, and the offline engines really apply them; the
// playground's clip and dialogue calls exist in the public API with the same fields (the View code panel shows them).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testEngine, type TestTaskApp, type TestUser, testApps } from '../test-support/task-apps';
import { synthesize } from '../engines';
import { ffmpegTools, probe } from '../tools';
import { RUN_OPTIONS } from '../../src/lib/product-rules';

const openApp = testApps();
let t: TestTaskApp;
const dir = mkdtempSync(path.join(tmpdir(), 'run-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: number; code: number; msg: string; data: any };

async function playground(user: TestUser, route: string, body?: unknown): Promise<Answer> {
  const init: RequestInit =
    body === undefined
      ? { headers: { token: user.token } }
      : {
          method: 'POST',
          headers: { token: user.token, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        };
  const res = await t.app.request(`/api-playground/${route}`, init);
  const json = (await res.json()) as { code: number; msg: string; data: unknown };
  return { status: res.status, ...json };
}

async function publicApi(user: TestUser, tool: string, body: unknown): Promise<Answer> {
  const res = await t.app.request(`/api/async/${tool}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; message: string; data: unknown };
  return { status: res.status, code: json.code, msg: json.message, data: json.data };
}

const priceItem = async (id: string) =>
  (await t.database.db.selectFrom('tasks').select('price_item').where('id', '=', id).executeTakeFirstOrThrow())
    .price_item;
const storedInput = async (id: string) =>
  JSON.parse(
    (await t.database.db.selectFrom('tasks').select('input').where('id', '=', id).executeTakeFirstOrThrow()).input,
  ) as Record<string, unknown>;

describe('advanced settings', () => {
  it('the features answer lists the settings of each serving engine: eSpeak speed and pitch, preview aspect ratio and seed', async () => {
    t = await openApp();
    const user = await t.createUser(0);
    const r = await playground(user, 'task/v1/features');
    const options = Object.fromEntries(
      (r.data.list as Array<{ feature: string; options: string[] }>).map((f) => [f.feature, f.options]),
    );
    expect(options['tts-common']).toEqual(['speed', 'pitch']);
    expect(options.dialogue).toEqual(['speed', 'pitch']);
    expect(options['text-to-video']).toEqual(['aspectRatio', 'seed']);
    expect(options['talking-face']).toEqual([]);
    // No engine: nothing to offer.
    expect(options['voice-clone']).toEqual([]);
  });

  it('the playground stores speed and pitch for eSpeak, and refuses pitch when the serving engine does not honour it', async () => {
    t = await openApp({
      engines: [testEngine({ features: ['tts-pro'] })],
      env: { ENGINES: 'tts-pro=test' },
    });
    const user = await t.createUser(10);
    const ok = await playground(user, 'speech/v1/tts', {
      text: 'Hello',
      voiceId: 'en-us-male-1',
      speed: 200,
      pitch: 70,
    });
    expect(ok.code).toBe(0);
    expect(await storedInput(ok.data.taskId)).toMatchObject({
      text: 'Hello',
      voice: 'en-us-male-1',
      speed: 200,
      pitch: 70,
    });

    const refused = await playground(user, 'speech/v1/tts', {
      text: 'Hello',
      voiceId: 'en-us-male-1',
      quality: 'pro',
      pitch: 70,
    });
    expect(refused.status).toBe(400);
    expect(refused.msg).toBe(
      'pitch: the engine serving tts-pro on this server (test) does not support it; leave the advanced settings out',
    );

    const range = await playground(user, 'speech/v1/tts', { text: 'Hello', voiceId: 'en-us-male-1', pitch: 120 });
    expect(range.status).toBe(400);
    expect(range.msg).toBe(`pitch: must be ${RUN_OPTIONS.pitch.min} to ${RUN_OPTIONS.pitch.max}`);
  });

  it('the public API takes pitch on TTS and refuses a negative prompt the preview engine cannot honour', async () => {
    t = await openApp();
    const user = await t.createUser(500);
    const tts = await publicApi(user, 'do_tts_common', { text: 'Hello', audioId: 'en-gb-male-1', pitch: 20 });
    expect(tts.code).toBe(0);
    expect(await storedInput(tts.data.taskId)).toMatchObject({ voice: 'en-gb-male-1', pitch: 20 });
    const wan = await publicApi(user, 'wan/text_to_video/2.1', { prompt: 'a boat', negativePrompt: 'rain' });
    expect(wan.status).toBe(400);
    expect(wan.msg).toBe(
      'Illegal parameter: negativePrompt: the engine serving wan-text-to-video on this server (preview) does not support it; it supports aspectRatio, seed',
    );
  });

  it('eSpeak speaks at the asked pitch: the same text at pitch 10 and 90 gives different sound', async () => {
    const low = await synthesize('Pitch test', 'en-us+m3', undefined, undefined, 10);
    const high = await synthesize('Pitch test', 'en-us+m3', undefined, undefined, 90);
    const natural = await synthesize('Pitch test', 'en-us+m3');
    expect(low.equals(high)).toBe(false);
    expect(
      natural.equals(await synthesize('Pitch test', 'en-us+m3', undefined, undefined, RUN_OPTIONS.pitch.default)),
    ).toBe(true);
  });
});

describe('the playground clip calls in the public API', () => {
  it('text2video takes length and resolution (priced as that row) and character2video a sample model', async () => {
    t = await openApp();
    const user = await t.createUser(1000);
    const long = await publicApi(user, 'text2video', {
      prompt: 'a lighthouse',
      duration: 8,
      resolution: '720p',
      seed: 3,
    });
    expect(await priceItem(long.data.taskId)).toBe('text-to-video-8s-720p');
    expect(await storedInput(long.data.taskId)).toMatchObject({
      prompt: 'a lighthouse',
      durationS: 8,
      resolution: '720p',
      seed: 3,
    });
    expect((await storedInput(long.data.taskId)).duration).toBeUndefined();
    const bad = await publicApi(user, 'text2video', { prompt: 'a lighthouse', duration: 8, resolution: '1080p' });
    expect(bad.msg).toMatch(/^Illegal parameter: resolution: offered: /);
    const character = await publicApi(user, 'character2video', {
      prompt: 'waves',
      modelId: 'model-emma',
      resolution: '512p',
    });
    expect(await priceItem(character.data.taskId)).toBe('text-to-video-4s-512p');
    const row = await t.database.db
      .selectFrom('tasks')
      .select('feature')
      .where('id', '=', character.data.taskId)
      .executeTakeFirstOrThrow();
    expect(row.feature).toBe('character-to-video');
    const none = await publicApi(user, 'character2video', { prompt: 'waves' });
    expect(none.msg).toBe('Illegal parameter: modelId: give modelId or imgUrl');
  });

  it('dialogue is a public tool with the playground fields', async () => {
    t = await openApp();
    const user = await t.createUser(10);
    const r = await publicApi(user, 'dialogue', {
      lines: [
        { speaker: 'A', text: 'Hi' },
        { speaker: 'B', text: 'Hello' },
      ],
      voices: { A: 'en-us-female-1', B: 'fr-male-1' },
      speed: 150,
    });
    expect(r.code).toBe(0);
    expect(await storedInput(r.data.taskId)).toMatchObject({
      voices: { A: 'en-us-female-1', B: 'fr-male-1' },
      speed: 150,
    });
    const missing = await publicApi(user, 'dialogue', { lines: [{ speaker: 'A', text: 'Hi' }], voices: {} });
    expect(missing.msg).toBe('Illegal parameter: voices.A: speaker "A" needs a voice');
  });

  it('the preview engine makes the asked frame shape, and a seed changes the clip while the same seed repeats it', async () => {
    const tools = ffmpegTools();
    expect(tools, 'ffmpeg must be found after npm ci').not.toBeNull();
    t = await openApp();
    await t.system.queue.start();
    const user = await t.createUser(1000);
    const clip = async (body: Record<string, unknown>) => {
      const r = await playground(user, 'video_tools/v1/animate_video', {
        type: 'text',
        prompt: 'a quiet harbour',
        resolution: '512p',
        duration: 4,
        ...body,
      });
      expect(r.code, r.msg).toBe(0);
      const task = await t.waitForTask(r.data.taskId, 60_000);
      expect(task.status, task.error ?? '').toBe('succeeded');
      const polled = await playground(user, 'video_tools/v1/poll', { taskId: r.data.taskId });
      const url = new URL(polled.data.outputs[0].url);
      const bytes = Buffer.from(await (await t.app.request(url.pathname + url.search)).arrayBuffer());
      const file = path.join(dir, `${r.data.taskId}.mp4`);
      writeFileSync(file, bytes);
      return { bytes, info: await probe(tools!.ffprobe!, file) };
    };
    const tall = await clip({ aspectRatio: '9:16', seed: 1 });
    expect([tall.info.video?.width, tall.info.video?.height]).toEqual([512, 912]);
    const again = await clip({ aspectRatio: '9:16', seed: 1 });
    const other = await clip({ aspectRatio: '9:16', seed: 2 });
    expect(again.bytes.equals(tall.bytes)).toBe(true);
    expect(other.bytes.equals(tall.bytes)).toBe(false);
  }, 120_000);
});
