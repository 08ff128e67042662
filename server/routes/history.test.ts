// The playground history on the server: several-feature filter, search over what tasks were made from, re-run, poster
// frames, download names.
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { HISTORY_MESSAGES } from '../../src/lib/product-rules';
import type { Engine } from '../engines';
import { ffmpegTools } from '../tools';
import { uploadAs } from '../test-support/tasks';
import { testEngine, type TestTaskApp, type TestUser, testApps } from '../test-support/task-apps';
import { writeTestPatternMp4 } from '../test-support/lavfi-media';
import { silentWav } from '../test-support/wav';

/** A 2-second MP4 test pattern made with the ffmpeg the server ships with. */
function clip(): Uint8Array {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'history-test-')), 'clip.mp4');
  writeTestPatternMp4(ffmpegTools()!.ffmpeg, file);
  return new Uint8Array(readFileSync(file));
}

/** Text to video that answers a real MP4, so the stored result gets a poster frame. */
function videoEngine(video: Uint8Array): Engine {
  return {
    name: 'clip',
    features: ['text-to-video'],
    run: async () => ({ outputs: [{ kind: 'video', mime: 'video/mp4', data: Buffer.from(video), durationS: 2 }] }),
  };
}

const openApp = testApps();
let t: TestTaskApp;
let user: TestUser;

beforeEach(async () => {
  t = await openApp({
    engines: [testEngine({ name: 'ok', features: ['tts-common', 'tts-pro', 'talking-image'] }), videoEngine(clip())],
    env: { ENGINES: 'tts-common=ok,tts-pro=ok,talking-image=ok,text-to-video=clip' },
    start: 'queue',
  });
  user = await t.createUser(500);
});

async function call(path: string, body: unknown) {
  const res = await t.app.request(`/api-playground${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token: user.token },
    body: JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: any } };
}
async function speak(text: string, voiceId = 'en-us-female-1', quality: 'common' | 'pro' = 'common') {
  const id = (await call('/speech/v1/tts', { text, voiceId, quality })).body.data.taskId as string;
  await t.waitForTask(id);
  return id;
}
/** A text-to-video clip (a real MP4 from the clip engine), finished. */
async function animate(prompt: string) {
  const id = (await call('/video_tools/v1/animate_video', { type: 'text', prompt, resolution: '720p', duration: 4 }))
    .body.data.taskId as string;
  await t.waitForTask(id);
  return id;
}
const ids = async (body: unknown) =>
  ((await call('/video_tools/v1/get_list', body)).body.data.list as Array<{ taskId: string }>).map((x) => x.taskId);

describe('history list', () => {
  it('filters by several features and searches the text and voice, not the field names', async () => {
    const cat = await speak('The cat sat on the mat');
    const dog = await speak('A dog barked', 'en-gb-male-1', 'pro');
    const video = await animate('A cat video');

    expect(await ids({ features: ['tts-common', 'tts-pro'] })).toEqual([dog, cat]);
    expect(await ids({ q: 'CAT' })).toEqual([video, cat]);
    expect(await ids({ q: 'cat', features: ['tts-common', 'tts-pro'] })).toEqual([cat]);
    // Voices are found by the name people see; "text" and "voice" are field names of every input.
    expect(await ids({ q: 'oliver' })).toEqual([dog]);
    expect(await ids({ q: 'voice' })).toEqual([]);
    expect(await ids({ q: 'text' })).toEqual([]);
    expect(await ids({ q: '100%_' })).toEqual([]);
    const page = (await call('/video_tools/v1/get_list', { q: 'a', page: 2, pageSize: 1 })).body.data;
    expect(page.total).toBe(3);
    expect(page.list.map((x: { taskId: string }) => x.taskId)).toEqual([dog]);
    expect((await call('/video_tools/v1/get_list', { features: ['nope'] })).status).toBe(400);
  });
});

describe('re-run', () => {
  it('submits a new task with the same feature and inputs, charged again', async () => {
    const first = await speak('Say it twice', 'en-gb-male-1', 'pro');
    const again = await call('/video_tools/v1/rerun', { taskId: first });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      feature: 'tts-pro',
      input: { text: 'Say it twice', voice: 'en-gb-male-1' },
      credits: 1,
    });
    expect(again.body.data.taskId).not.toBe(first);
    expect((await t.waitForTask(again.body.data.taskId)).status).toBe('succeeded');
    expect((await call('/video_tools/v1/rerun', { taskId: 'someone-elses' })).status).toBe(404);
  });

  it('signs links to the user’s own uploads again, and says so when an input file is gone', async () => {
    const audio = await uploadAs(t, user, silentWav(2, 16000), 'voice.wav', 'audio/wav');
    const first = (await call('/talking_face/v1/create_task', { audioUrl: audio.url, modelId: 'model-emma' })).body.data
      .taskId as string;
    await t.waitForTask(first);
    const again = await call('/video_tools/v1/rerun', { taskId: first });
    expect(again.status).toBe(200);
    const url = again.body.data.input.audioUrl as string;
    expect(url.split('?')[0]).toBe(audio.url.split('?')[0]);
    expect(again.body.data.input.seconds).toBe(2);
    await t.waitForTask(again.body.data.taskId);

    await t.database.db
      .updateTable('media')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', audio.id)
      .execute();
    expect(await call('/video_tools/v1/rerun', { taskId: first })).toMatchObject({
      status: 400,
      body: { msg: HISTORY_MESSAGES.rerunInputsGone },
    });
  });
});

describe('poster frames and download names', () => {
  it('stores a JPEG poster beside a video result, lists it with the video, and removes it with the task', async () => {
    const id = await animate('Test pattern');
    const task = (await call('/video_tools/v1/poll', { taskId: id })).body.data;
    expect(task.outputs).toHaveLength(1);
    expect(task.outputs[0]).toMatchObject({
      kind: 'video',
      mime: 'video/mp4',
      posterUrl: expect.stringMatching(/\/media\/\w+\.jpg\?exp=/),
    });
    const poster = await t.app.request(
      new URL(task.outputs[0].posterUrl).pathname + new URL(task.outputs[0].posterUrl).search,
    );
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    const bytes = new Uint8Array(await poster.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    // The public API lists the video alone.
    const dream = await t.app.request('/api/getAsyncResult', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.apiKey}` },
      body: JSON.stringify({ taskId: id }),
    });
    const data = ((await dream.json()) as { data: { images: unknown[]; videos: unknown[] } }).data;
    expect([data.images.length, data.videos.length]).toEqual([0, 1]);

    await call('/video_tools/v1/delete', { taskId: id });
    expect(await t.database.db.selectFrom('media').select('kind').where('task_id', '=', id).execute()).toEqual([]);
  });

  it('answers a media link with ?download=<name> as an attachment of that name, and ignores unsafe names', async () => {
    const id = await speak('Download me');
    const url = new URL((await call('/video_tools/v1/poll', { taskId: id })).body.data.outputs[0].url);
    const named = await t.app.request(`${url.pathname}${url.search}&download=speech-common-2025-01-31.wav`);
    expect(named.headers.get('content-disposition')).toBe('attachment; filename="speech-common-2025-01-31.wav"');
    const unsafe = await t.app.request(`${url.pathname}${url.search}&download=${encodeURIComponent('a"\r\nx.wav')}`);
    expect(unsafe.status).toBe(200);
    expect(unsafe.headers.get('content-disposition')).toBeNull();
  });
});
