// Playground API: model list, history newest first and paginated, poll, delete with media, refusals with clear
// messages.
import { describe, expect, it } from 'vitest';
import { testApps, testEngine, type TestTaskApp } from '../test-support/task-apps';

const openApp = testApps();
let t: TestTaskApp;

async function call(app: TestTaskApp['app'], path: string, token: string, body?: unknown) {
  const res = await app.request(
    path,
    body === undefined
      ? { headers: { token } }
      : { method: 'POST', headers: { 'content-type': 'application/json', token }, body: JSON.stringify(body) },
  );
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: any } };
}

describe('playground API', () => {
  it('lists the four sample models of SPEC.md §3 with name, desc, id and an image in public/', async () => {
    t = await openApp();
    const user = await t.createUser(0);
    const r = await call(t.app, '/api-playground/vih_model/v1/model_list', user.token);
    expect(r.body.code).toBe(0);
    expect(r.body.data.list).toHaveLength(4);
    const { existsSync } = await import('node:fs');
    for (const m of r.body.data.list) {
      expect(Object.keys(m).sort()).toEqual(['desc', 'id', 'name', 'src']);
      expect(existsSync(`public${m.src}`)).toBe(true);
    }
  });

  it('get_list is the history newest first, paginated; poll shows a task; delete removes it and its media', async () => {
    t = await openApp({
      engines: [testEngine()],
      env: { ENGINES: 'tts-common=test', TASK_USER_CONCURRENCY: '10' },
    });
    const user = await t.createUser(10);
    const other = await t.createUser(10);
    const ids: string[] = [];
    for (const text of ['first', 'second', 'third']) {
      const r = await call(t.app, '/api-playground/speech/v1/tts', user.token, { text, voiceId: 'fr-male-1' });
      expect(r.body.data).toMatchObject({ status: 'queued', credits: 1, feature: 'tts-common' });
      ids.push(r.body.data.taskId);
      await new Promise((res) => setTimeout(res, 2));
    }
    await t.system.queue.start();
    for (const id of ids) await t.waitForTask(id);
    const page1 = await call(t.app, '/api-playground/video_tools/v1/get_list', user.token, { page: 1, pageSize: 2 });
    expect(page1.body.data.total).toBe(3);
    expect(page1.body.data.list.map((x: { taskId: string }) => x.taskId)).toEqual([ids[2], ids[1]]);
    const page2 = await call(t.app, '/api-playground/video_tools/v1/get_list', user.token, { page: 2, pageSize: 2 });
    expect(page2.body.data.list.map((x: { taskId: string }) => x.taskId)).toEqual([ids[0]]);

    const polled = await call(t.app, '/api-playground/video_tools/v1/poll', user.token, { taskId: ids[0] });
    expect(polled.body.data).toMatchObject({
      status: 'succeeded',
      progress: 100,
      credits: 1,
      outputs: [{ kind: 'audio', mime: 'audio/wav' }],
    });
    expect((await call(t.app, '/api-playground/video_tools/v1/poll', other.token, { taskId: ids[0] })).status).toBe(
      404,
    );

    const del = await call(t.app, '/api-playground/video_tools/v1/delete', user.token, { taskId: ids[0] });
    expect(del.body.code).toBe(0);
    expect((await call(t.app, '/api-playground/video_tools/v1/poll', user.token, { taskId: ids[0] })).status).toBe(404);
    expect(await t.database.db.selectFrom('media').select('id').where('task_id', '=', ids[0]!).execute()).toHaveLength(
      0,
    );
    const media = await t.app.request(
      new URL(polled.body.data.outputs[0].url).pathname + new URL(polled.body.data.outputs[0].url).search,
    );
    expect(media.status).toBe(403);
  });

  it.each([
    ['/api-playground/speech/v1/tts', { text: 'hi', voiceId: 'nobody' }, 'voiceId'],
    ['/api-playground/speech/v1/tts', { text: 42, voiceId: 'en-us-male-1' }, 'text'],
    ['/api-playground/speech/v1/tts', { text: 'x'.repeat(5001), voiceId: 'en-us-male-1' }, 'text'],
    ['/api-playground/speech/v1/dialogue', { lines: [{ speaker: 'A', text: 'hi' }], voices: {} }, 'voices.A'],
    ['/api-playground/video_tools/v1/animate_video', { type: 'image', prompt: 'x' }, 'imageUrl'],
    [
      '/api-playground/video_tools/v1/animate_video',
      { type: 'text', prompt: 'x', resolution: '1080p', duration: 8 },
      'resolution',
    ],
    ['/api-playground/talking_face/v1/create_task', { audioUrl: 'not a url' }, 'audioUrl'],
    ['/api-playground/did_video_task/v1/translate_submit', { videoUrl: 'https://x.test/v.mp4' }, 'targetLanguage'],
    ['/api-playground/video_tools/v1/get_list', { page: 0 }, 'page'],
    ['/api-playground/video_tools/v1/poll', {}, 'taskId'],
  ])('%s refuses %j naming %s', async (path, body, field) => {
    t = await openApp();
    const user = await t.createUser(10);
    const r = await call(t.app, path, user.token, body);
    expect(r.status).toBe(400);
    expect(r.body.code).not.toBe(0);
    expect(r.body.msg.startsWith(`${field}:`)).toBe(true);
  });

  it('refuses calls without a session with 40001', async () => {
    t = await openApp();
    const r = await call(t.app, '/api-playground/speech/v1/tts', 'bad-token', { text: 'hi', voiceId: 'en-us-male-1' });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe(40001);
  });
});
