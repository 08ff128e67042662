// fal.ai adapter contract: a local fake of fal's queue API (submit, status, result, cancel, storage); task and ledger end right.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTasksTestApp, createUser, creditState, waitForTask, type TasksTestApp } from '../../test-support/tasks';
import { estimateCredits } from '../../tasks';
import { FAL_MODELS } from '../../../src/lib/spec/engines';
import { ffmpegTools, runTool } from '../local/ffmpeg';

type Mode = 'ok' | 'fail' | 'hang' | 'malformed' | 'rate-limited' | 'no-output';

/** The fake: records every call; `mode` decides how the next job behaves. */
interface Fake {
  url: string;
  mode: Mode;
  calls: Array<{ method: string; path: string; auth: string | undefined; body: string }>;
  uploads: Buffer[];
  server: Server;
}

const dir = mkdtempSync(path.join(tmpdir(), 'fal-test-'));
const clip = path.join(dir, 'clip.mp4');
const voice = path.join(dir, 'voice.wav');
let fake: Fake;

function read(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

function startFake(): Promise<Fake> {
  const state = { mode: 'ok' as Mode, calls: [] as Fake['calls'], uploads: [] as Buffer[], statusCalls: new Map<string, number>(), rateLimited: 0 };
  const server = createServer(async (req, res) => {
    const body = await read(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    state.calls.push({ method: req.method ?? '', path: url.pathname, auth: req.headers.authorization, body: body.toString('latin1').slice(0, 2000) });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(typeof value === 'string' ? value : JSON.stringify(value));
    };
    if (req.headers.authorization !== 'Key test-key' && !url.pathname.startsWith('/files/') && !url.pathname.startsWith('/upload/')) return send(401, { detail: 'Invalid key' });
    if (req.method === 'POST' && url.pathname === '/storage/upload/initiate') {
      const id = `u${state.uploads.length}`;
      return send(200, { upload_url: `${base}/upload/${id}`, file_url: `${base}/files/${id}` });
    }
    if (req.method === 'PUT' && url.pathname.startsWith('/upload/')) {
      state.uploads.push(body);
      return send(200, {});
    }
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      return res.end(readFileSync(clip));
    }
    const job = /^\/(.+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(url.pathname);
    if (req.method === 'POST' && !job) {
      if (state.mode === 'malformed') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html>upstream proxy error</html>');
      }
      if (state.mode === 'rate-limited' && state.rateLimited++ === 0) return send(429, { detail: 'Too many requests' }, { 'retry-after': '1' });
      const id = `req-${state.calls.length}-${state.mode}`;
      const model = url.pathname.slice(1);
      return send(200, { request_id: id, status_url: `${base}/${model}/requests/${id}/status`, response_url: `${base}/${model}/requests/${id}`, cancel_url: `${base}/${model}/requests/${id}/cancel`, queue_position: 0 });
    }
    if (job && req.method === 'PUT' && job[3] === '/cancel') return send(202, { status: 'CANCELLATION_REQUESTED' });
    if (job && req.method === 'GET' && job[3] === '/status') {
      const id = job[2]!;
      const n = (state.statusCalls.get(id) ?? 0) + 1;
      state.statusCalls.set(id, n);
      if (id.endsWith('hang')) return send(200, { status: n === 1 ? 'IN_QUEUE' : 'IN_PROGRESS', queue_position: 0 });
      return send(200, n === 1 ? { status: 'IN_PROGRESS', logs: [] } : { status: 'COMPLETED' });
    }
    if (job && req.method === 'GET') {
      if (job[2]!.endsWith('fail')) return send(422, { detail: [{ loc: ['body', 'prompt'], msg: 'prompt was flagged by the content checker' }] });
      if (job[2]!.endsWith('no-output')) return send(200, { seed: 4 });
      return send(200, { video: { url: `${base}/files/out.mp4`, content_type: 'video/mp4' }, seed: 42 });
    }
    send(404, { detail: 'not found' });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const f: Fake = {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        get mode() {
          return state.mode;
        },
        set mode(m: Mode) {
          state.mode = m;
        },
        calls: state.calls,
        uploads: state.uploads,
        server,
      };
      resolve(f);
    }),
  );
}

beforeAll(async () => {
  const ff = ffmpegTools()!.ffmpeg;
  await runTool(ff, ['-f', 'lavfi', '-i', 'testsrc=s=320x240:r=24:d=1', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-y', clip]);
  await runTool(ff, ['-f', 'lavfi', '-i', 'sine=d=1', '-ac', '1', '-y', voice]);
  fake = await startFake();
});
afterAll(async () => {
  await new Promise((r) => fake.server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

let t: TasksTestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  fake.calls.length = 0;
});

async function app(extra: Record<string, string> = {}) {
  t = await createTasksTestApp({ env: { FAL_KEY: 'test-key', FAL_QUEUE_URL: fake.url, FAL_STORAGE_URL: fake.url, ENGINES: 'text-to-video=fal,lipsync=fal', ...extra } });
  await t.system.start();
  return t;
}

async function submitText(t: TasksTestApp, apiKey: string, prompt = 'a fox in snow') {
  const res = await t.app.request('/api/async/text2video', { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ prompt }) });
  const body = (await res.json()) as { code: number; msg: string; data: { taskId: string } };
  expect(res.status, body.msg).toBe(200);
  return body.data.taskId;
}

const PRICE = estimateCredits('text-to-video', {}).credits;

describe('fal.ai adapter against a fake fal queue', () => {
  it('submits to the Wan model with mapped fields, follows status to COMPLETED, stores the video locally, charges once', async () => {
    fake.mode = 'ok';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitText(t, user.apiKey));
    expect(task.status, task.error ?? '').toBe('succeeded');
    const submit = fake.calls.find((c) => c.method === 'POST' && c.path === `/${FAL_MODELS.textToVideo}`)!;
    expect(submit.auth).toBe('Key test-key');
    expect(JSON.parse(submit.body)).toMatchObject({ prompt: 'a fox in snow', resolution: '720p' });
    expect(fake.calls.filter((c) => c.path.endsWith('/status')).length).toBeGreaterThanOrEqual(2);
    const media = await t.database.db.selectFrom('media').selectAll().where('task_id', '=', task.id).execute();
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({ kind: 'video', mime: 'video/mp4', size: readFileSync(clip).length });
    const credits = await creditState(t, user.id);
    expect(credits.balance).toBe(100 - PRICE);
    expect(credits.ledgerSum).toBe(credits.balance);
  });

  it('a failed job (422 detail on the result) ends failed with the reason, refunded', async () => {
    fake.mode = 'fail';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitText(t, user.apiKey));
    expect(task.status).toBe('failed');
    expect(task.error).toContain('flagged by the content checker');
    expect((await creditState(t, user.id)).balance).toBe(100);
  });

  it('a job past the engine timeout is canceled at fal, failed and refunded', async () => {
    fake.mode = 'hang';
    const t = await app({ ENGINE_TIMEOUTS_MS: 'fal=1500' });
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitText(t, user.apiKey));
    expect(task.status).toBe('failed');
    expect(task.error).toContain('timed out');
    await expect.poll(() => fake.calls.some((c) => c.method === 'PUT' && c.path.endsWith('/cancel'))).toBe(true);
    expect((await creditState(t, user.id)).balance).toBe(100);
  });

  it('a task canceled by its owner cancels the fal job and is refunded', async () => {
    fake.mode = 'hang';
    const t = await app();
    const user = await createUser(t, 100);
    const id = await submitText(t, user.apiKey);
    await expect.poll(() => fake.calls.some((c) => c.path.endsWith('/status')), { timeout: 5000 }).toBe(true);
    const res = await t.app.request('/api-playground/video_tools/v1/delete', { method: 'POST', headers: { token: user.token, 'content-type': 'application/json' }, body: JSON.stringify({ taskId: id }) });
    expect(res.status).toBe(200);
    await expect.poll(() => fake.calls.some((c) => c.method === 'PUT' && c.path.endsWith('/cancel')), { timeout: 5000 }).toBe(true);
    expect((await creditState(t, user.id)).balance).toBe(100);
  });

  it('malformed answers (HTML instead of JSON, a result with no file) fail the task clearly and refund it', async () => {
    for (const mode of ['malformed', 'no-output'] as const) {
      fake.mode = mode;
      const t = await app();
      const user = await createUser(t, 100);
      const task = await waitForTask(t, await submitText(t, user.apiKey));
      expect(task.status).toBe('failed');
      expect(task.error).toContain('malformed answer');
      expect((await creditState(t, user.id)).balance).toBe(100);
      await t.close();
    }
    t = undefined;
  });

  it('a 429 with Retry-After is waited out and retried; the task succeeds, charged once', async () => {
    fake.mode = 'rate-limited';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitText(t, user.apiKey));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(fake.calls.filter((c) => c.method === 'POST' && c.path === `/${FAL_MODELS.textToVideo}`)).toHaveLength(2);
    expect((await creditState(t, user.id)).balance).toBe(100 - PRICE);
  });

  it('lip sync uploads our local media to fal storage and is settled per second on the returned video', async () => {
    fake.mode = 'ok';
    const t = await app();
    const user = await createUser(t, 100);
    const uploadOne = async (file: string) => {
      const form = new FormData();
      form.set('file', new Blob([readFileSync(file)]), 'x');
      const res = await t.app.request('/api-playground/file/v1/upload', { method: 'POST', headers: { token: user.token }, body: form });
      return ((await res.json()) as { data: { url: string } }).data.url;
    };
    const [srcVideoUrl, audioUrl] = [await uploadOne(clip), await uploadOne(voice)];
    const res = await t.app.request('/api/async/lipsync', { method: 'POST', headers: { authorization: `Bearer ${user.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ srcVideoUrl, audioUrl }) });
    const id = ((await res.json()) as { data: { taskId: string } }).data.taskId;
    const task = await waitForTask(t, id);
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(fake.uploads).toHaveLength(2);
    const submit = JSON.parse(fake.calls.find((c) => c.path === `/${FAL_MODELS.lipsync}`)!.body) as Record<string, string>;
    expect(submit.video_url).toMatch(/\/files\/u0$/);
    expect(submit.audio_url).toMatch(/\/files\/u1$/);
    const expected = estimateCredits('lipsync', { seconds: 1 }).credits;
    expect(task.credits_charged).toBe(expected);
    const credits = await creditState(t, user.id);
    expect(credits.ledgerSum).toBe(credits.balance);
  });
});
