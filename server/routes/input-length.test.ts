// Per-second tasks hold the full estimate of their input's measured length at submit (SPEC.md §9): outside URLs, other
// accounts' uploads, settling.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engines';
import { ERROR_CODES, TASK_ERROR_CODES, TASK_MESSAGES } from '../../src/lib/product-rules';
import {
  createTasksTestApp,
  createUser,
  creditState,
  waitForTask,
  type TasksTestApp,
  type TestUser,
} from '../test-support/tasks';
import { silentWav } from '../test-support/wav';

/**
 * A lip-sync engine for tests: reads the audio like a real one and answers a video `factor` times its length. It also
 * serves speech to text, so a speech-to-text submit gets as far as measuring its input (no engine would be a 503).
 */
function stretchEngine(factor: { value: number }): Engine {
  return {
    name: 'stretch',
    features: ['talking-face', 'talking-image', 'lipsync', 'stt-common'],
    async run(_feature, input, ctx) {
      const audio = await ctx.readInput((input as { audioUrl: string }).audioUrl, ['audio']);
      return {
        outputs: [
          {
            kind: 'video',
            mime: 'video/mp4',
            data: Buffer.from('video bytes'),
            durationS: audio.durationS! * factor.value,
          },
        ],
      };
    },
  };
}

/** Files an outside host serves; a path's body may change between requests (a file that grows after submit). */
const files = new Map<string, () => Buffer>();
let outside: Server;
let host: string;
let t: TasksTestApp;
const factor = { value: 1 };

beforeAll(async () => {
  outside = createServer((req, res) => {
    const body = files.get(req.url ?? '')?.();
    if (!body) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((r) => outside.listen(0, '127.0.0.1', r));
  host = `http://127.0.0.1:${(outside.address() as AddressInfo).port}`;
  files.set('/voice-20s.wav', () => silentWav(20, 8000));
  files.set('/voice-3s.wav', () => silentWav(3, 8000));
  files.set('/notes.txt', () => Buffer.from('only some text, not audio at all'));
  // The test app allows private targets (test config), so the local listener counts as an outside host.
  t = await createTasksTestApp({
    engines: [stretchEngine(factor)],
    env: {
      ENGINES: 'talking-face=stretch,talking-image=stretch,lipsync=stretch,stt-common=stretch',
      TASK_USER_CONCURRENCY: '20',
    },
  });
  await t.system.start();
});
afterEach(() => {
  factor.value = 1;
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => outside.close(r));
});

async function api(user: TestUser, path: string, body: unknown) {
  const res = await t.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.apiKey}` },
    body: JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data: any } };
}

async function playground(user: TestUser, path: string, body: unknown) {
  const res = await t.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token: user.token },
    body: JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: any } };
}

/** Uploads a WAV through the playground and answers its signed URL (this server's media link). */
async function upload(user: TestUser, seconds: number): Promise<string> {
  const form = new FormData();
  form.set('scene', 'audio');
  form.set('file', new Blob([new Uint8Array(silentWav(seconds, 8000))]), 'voice.wav');
  const res = await t.app.request('/api-playground/file/v1/upload', {
    method: 'POST',
    headers: { token: user.token },
    body: form,
  });
  const body = (await res.json()) as { code: number; data: { url: string } };
  expect(body.code).toBe(0);
  return body.data.url;
}

/** The whole ledger and every balance: nothing was created or lost anywhere. */
async function wholeLedger() {
  const db = t.database.db;
  const rows = await db
    .selectFrom('credit_ledger')
    .select(['user_id', 'delta', 'reason', 'reference'])
    .orderBy('id')
    .execute();
  const users = await db.selectFrom('users').select(['id', 'credits']).execute();
  for (const u of users)
    expect(rows.filter((r) => r.user_id === u.id).reduce((n, r) => n + r.delta, 0)).toBe(u.credits);
  return rows;
}

const talkingFace = (audioUrl: string) => ({ srcVideoUrl: `${host}/face.mp4`, audioUrl });

describe('per-second tasks with an outside input', () => {
  it('a user at 0 credits is refused 402 "needs N" for an outside audio URL, in the API and the playground; nothing is held or stored', async () => {
    const broke = await createUser(t, 0);
    const api402 = await api(broke, '/api/async/talking_face', talkingFace(`${host}/voice-20s.wav`));
    expect(api402.status).toBe(402);
    expect(api402.body.code).toBe(TASK_ERROR_CODES.insufficientCredits);
    // 20 s at the LipSync price of 1 credit per second.
    expect(api402.body.message).toContain('needs 20');
    // Talking image is 2 credits per second: the same audio needs 40.
    const pg402 = await playground(broke, '/api-playground/talking_face/v1/create_task', {
      audioUrl: `${host}/voice-20s.wav`,
      modelId: 'model-emma',
    });
    expect(pg402.status).toBe(402);
    expect(pg402.body.msg).toContain('needs 40');
    expect(await t.database.db.selectFrom('tasks').select('id').where('user_id', '=', broke.id).execute()).toHaveLength(
      0,
    );
    expect((await wholeLedger()).filter((r) => r.user_id === broke.id)).toHaveLength(0);
  });

  it('with enough credits the hold is the full estimate of the measured length, and the output of that length is charged exactly that', async () => {
    const user = await createUser(t, 25);
    const submitted = await api(user, '/api/async/talking_face', talkingFace(`${host}/voice-20s.wav`));
    expect(submitted.status).toBe(200);
    expect(submitted.body.data.credits).toBe(20);
    const ledger = (await wholeLedger()).filter((r) => r.user_id === user.id);
    expect(ledger.map((r) => [r.reason, r.delta])).toEqual([
      ['grant', 25],
      ['task-hold', -20],
    ]);
    const task = await waitForTask(t, submitted.body.data.taskId);
    expect(task).toMatchObject({ status: 'succeeded', credits_held: 20, credits_charged: 20 });
    expect(JSON.parse(task.input).seconds).toBe(20);
    expect((await creditState(t, user.id)).balance).toBe(5);
  });

  it('an output longer than the estimate is charged in full when the balance allows, else the held estimate is kept, never less', async () => {
    factor.value = 2;
    const rich = await createUser(t, 100);
    const poor = await createUser(t, 25);
    const a = await api(rich, '/api/async/talking_face', talkingFace(`${host}/voice-20s.wav`));
    const b = await api(poor, '/api/async/talking_face', talkingFace(`${host}/voice-20s.wav`));
    expect([a.body.data.credits, b.body.data.credits]).toEqual([20, 20]);
    expect(await waitForTask(t, a.body.data.taskId)).toMatchObject({ status: 'succeeded', credits_charged: 40 });
    expect(await waitForTask(t, b.body.data.taskId)).toMatchObject({ status: 'succeeded', credits_charged: 20 });
    expect((await creditState(t, rich.id)).balance).toBe(60);
    expect((await creditState(t, poor.id)).balance).toBe(5);
    await wholeLedger();
  });

  it('an input that cannot be read or measured is a 400 naming the field at submit, not a free task', async () => {
    const user = await createUser(t, 100);
    for (const url of [`${host}/missing.wav`, `${host}/notes.txt`, `http://127.0.0.1:1/voice.wav`]) {
      const r = await api(user, '/api/async/talking_face', talkingFace(url));
      expect(r.status).toBe(400);
      expect(r.body.message.startsWith('audioUrl:')).toBe(true);
    }
    const stt = await api(user, '/api/async/do_stt', { audioUrl: `${host}/notes.txt` });
    expect(stt.status).toBe(400);
    expect(await t.database.db.selectFrom('tasks').select('id').where('user_id', '=', user.id).execute()).toHaveLength(
      0,
    );
    expect((await creditState(t, user.id)).balance).toBe(100);
  });

  it('an outside file that grows after submit fails the task and refunds it instead of making the longer one', async () => {
    const user = await createUser(t, 100);
    let served = 0;
    files.set('/growing.wav', () => silentWav(served++ === 0 ? 3 : 30, 8000));
    const r = await api(user, '/api/async/talking_face', talkingFace(`${host}/growing.wav`));
    expect(r.body.data.credits).toBe(3);
    const task = await waitForTask(t, r.body.data.taskId);
    expect(task.status).toBe('failed');
    expect(task.error).toContain(TASK_MESSAGES.inputChanged(3, 30));
    expect((await creditState(t, user.id)).balance).toBe(100);
    await wholeLedger();
  });
});

describe("this server's media links", () => {
  it("another account's upload is refused with 403; the owner's own upload is measured and held", async () => {
    const owner = await createUser(t, 100);
    const other = await createUser(t, 100);
    const url = await upload(owner, 3);
    const refused = await api(other, '/api/async/talking_face', talkingFace(url));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(ERROR_CODES.forbidden);
    expect(refused.body.message).toBe(`audioUrl: ${TASK_MESSAGES.mediaNotYours}`);
    // Any field, not only the measured one: another account's image is refused too.
    const photo = await playground(other, '/api-playground/talking_face/v1/create_task', {
      audioUrl: `${host}/voice-3s.wav`,
      imageUrl: url,
    });
    expect(photo.status).toBe(403);
    expect(photo.body.msg).toBe(`imageUrl: ${TASK_MESSAGES.mediaNotYours}`);
    expect(await t.database.db.selectFrom('tasks').select('id').where('user_id', '=', other.id).execute()).toHaveLength(
      0,
    );
    expect((await creditState(t, other.id)).balance).toBe(100);

    const own = await api(owner, '/api/async/talking_face', talkingFace(url));
    expect(own.status).toBe(200);
    expect(own.body.data.credits).toBe(3);
    await waitForTask(t, own.body.data.taskId);
  });

  it('a link to no stored file, or one whose file expired, is a 400 at submit', async () => {
    const user = await createUser(t, 100);
    const url = await upload(user, 2);
    const id = /\/media\/([A-Za-z0-9]+)\./.exec(url)![1]!;
    await t.database.db
      .updateTable('media')
      .set({ expires_at: Date.now() - 1000 })
      .where('id', '=', id)
      .execute();
    for (const bad of [url, `${t.config.publicUrl}/media/0123456789abcdef.wav?exp=1&sig=x`]) {
      const r = await api(user, '/api/async/talking_face', talkingFace(bad));
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(`audioUrl: ${TASK_MESSAGES.mediaUnknown}`);
    }
    expect((await creditState(t, user.id)).balance).toBe(100);
  });
});
