// Every screen's View code call does what the screen's own submit does: on the real server, the public call and the
// playground call of the same inputs make a task of the same feature, price row, hold and stored settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTasksTestApp,
  createUser,
  uploadAs,
  type TasksTestApp,
  type TestUser,
} from '../../../../server/test-support/tasks';
import { postJson } from '../../../../server/test-support/post-json';
import { silentWav } from '../../../../server/test-support/wav';
import type { VideoType } from '../../../lib/site/products';
import { callFeature, callPath, type ApiCall } from './calls';
import { dialogueCall, speechCall, videoCall, type VideoCallInput } from './run-calls';
import { videoFeature } from '../VideoScreen';

let t: TasksTestApp;
let user: TestUser;
let image: string;
let audio: string;

/** A 2×2 PNG, enough for the upload check (the task is never run here). */
const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAwMDAwMDAAAAPAAFjGlQbAAAAAElFTkSuQmCC',
    'base64',
  ),
);

beforeAll(async () => {
  t = await createTasksTestApp({ env: { TASK_USER_CONCURRENCY: '100' } });
  user = await createUser(t, 100_000);
  image = (await uploadAs(t, user, PNG, 'still.png', 'image/png')).url;
  audio = (await uploadAs(t, user, Uint8Array.from(silentWav(2, 16000)), 'voice.wav', 'audio/wav')).url;
});
afterAll(() => t.close());

async function post(path: string, headers: Record<string, string>, body: unknown) {
  const { body: answer } = await postJson<{ code: number; message?: string; msg?: string; data: { taskId: string } }>(
    t.app,
    path,
    body,
    headers,
  );
  expect(answer.code, answer.message ?? answer.msg).toBe(0);
  return t.database.db
    .selectFrom('tasks')
    .select(['feature', 'price_item', 'credits_held', 'input'])
    .where('id', '=', answer.data.taskId)
    .executeTakeFirstOrThrow();
}

/** Submits both ways and compares what the server made of them. */
async function same(
  call: ApiCall,
  playgroundPath: string,
  playgroundBody: Record<string, unknown>,
  settings: string[] = [],
) {
  const viaApi = await post(callPath(call), { authorization: `Bearer ${user.apiKey}` }, call.body);
  const viaPlayground = await post(`/api-playground${playgroundPath}`, { token: user.token }, playgroundBody);
  expect(viaApi.feature).toBe(viaPlayground.feature);
  expect(viaApi.feature).toBe(callFeature(call));
  expect(viaApi.price_item).toBe(viaPlayground.price_item);
  expect(viaApi.credits_held).toBe(viaPlayground.credits_held);
  const [a, p] = [
    JSON.parse(viaApi.input) as Record<string, unknown>,
    JSON.parse(viaPlayground.input) as Record<string, unknown>,
  ];
  for (const name of settings) expect([name, a[name]]).toEqual([name, p[name]]);
}

const video = (o: Partial<VideoCallInput> = {}): VideoCallInput => ({
  prompt: '  A lighthouse at dawn ',
  modelId: 'model-james',
  drive: 'script',
  source: '',
  target: 'es',
  lipSync: true,
  resolution: '720p',
  durationS: 8,
  settings: { aspectRatio: '9:16', seed: 5 },
  ...o,
});

describe('View code calls match the screens', () => {
  it('speech, with speed and pitch, and Pro', async () => {
    const settings = { speed: 200, pitch: 30 };
    await same(
      speechCall({ text: ' Hello there ', voice: 'fr-female-1', quality: 'common', cloneId: null, settings }),
      '/speech/v1/tts',
      { text: 'Hello there', voiceId: 'fr-female-1', quality: 'common', ...settings },
      ['text', 'voice', 'speed', 'pitch'],
    );
    await same(
      speechCall({ text: 'Pro words', voice: 'en-gb-male-1', quality: 'pro', cloneId: null, settings: {} }),
      '/speech/v1/tts',
      { text: 'Pro words', voiceId: 'en-gb-male-1', quality: 'pro' },
      ['voice'],
    );
  });

  it('dialogue', async () => {
    const body = {
      lines: [
        { speaker: 'Ann', text: 'Hi' },
        { speaker: 'Bo', text: 'Hello there' },
      ],
      voices: { Ann: 'en-us-female-1', Bo: 'de-male-1' },
    };
    await same(dialogueCall(body, { speed: 150 }), '/speech/v1/dialogue', { ...body, speed: 150 }, [
      'lines',
      'voices',
      'speed',
    ]);
  });

  const animate = (type: 'text' | 'image' | 'character', d: VideoCallInput, extra: Record<string, unknown>) => ({
    type,
    prompt: d.prompt.trim(),
    resolution: d.resolution,
    duration: d.durationS,
    ...d.settings,
    ...extra,
  });
  it.each<[VideoType, Partial<VideoCallInput>]>([
    ['text', {}],
    ['character', {}],
    ['character', { resolution: '512p', durationS: 4, settings: {} }],
  ])('%s to video %j', async (type, o) => {
    const d = video(o);
    expect(callFeature(videoCall(type, d))).toBe(videoFeature(type, d));
    await same(
      videoCall(type, d),
      '/video_tools/v1/animate_video',
      animate(type as 'text' | 'character', d, type === 'character' ? { modelId: d.modelId } : {}),
      ['prompt', 'resolution', 'durationS', 'aspectRatio', 'seed'],
    );
  });

  it('image to video and a character from an uploaded portrait', async () => {
    const d = video({ imageUrl: image });
    await same(videoCall('image', d), '/video_tools/v1/animate_video', animate('image', d, { imageUrl: image }), [
      'prompt',
      'durationS',
      'seed',
    ]);
    await same(
      videoCall('character', d),
      '/video_tools/v1/animate_video',
      animate('character', d, { imageUrl: image }),
      ['prompt', 'durationS', 'seed'],
    );
  });

  it('per-second calls: a character driven by audio, lip sync and translation hold the same estimate', async () => {
    const d = video({ drive: 'audio', audioUrl: audio, videoUrl: audio });
    expect(callFeature(videoCall('character', d))).toBe('talking-image');
    await same(videoCall('character', d), '/talking_face/v1/create_task', { audioUrl: audio, modelId: d.modelId });
    const withPortrait = video({ drive: 'audio', audioUrl: audio, imageUrl: image });
    await same(videoCall('character', withPortrait), '/talking_face/v1/create_task', {
      audioUrl: audio,
      imageUrl: image,
    });
  });

  it('translation picks the voice-only or lip-sync feature as the screen does', () => {
    const voiceOnly = videoCall('translate', video({ lipSync: false, videoUrl: 'https://example.com/a.mp4' }));
    expect(callFeature(voiceOnly)).toBe(videoFeature('translate', { drive: 'script', lipSync: false }));
    expect(voiceOnly.body).toEqual({
      videoUrl: 'https://example.com/a.mp4',
      targetLanguage: 'es',
      enableLipSync: false,
    });
    expect(callFeature(videoCall('translate', video()))).toBe('video-translate-lip-sync');
    expect(videoCall('lipSync', video()).body).toEqual({
      srcVideoUrl: 'https://example.com/your-video.mp4',
      audioUrl: 'https://example.com/your-speech.wav',
    });
  });
});
