// Plumbing for provider contract tests: local HTTP fakes, small ffmpeg-made media, public-API calls and ledger checks.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { ffmpegTools, runTool } from '../tools';
import { expectCharged } from './ledger';
import { waitForTask, type TasksTestApp, type TestUser } from './tasks';

// The ledger checks, at hand with the rest of a provider test's plumbing.
export { expectCharged, expectChargedOnce } from './ledger';

/** The whole body of a request. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

export interface LocalServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Serves `handler` on a free port of 127.0.0.1; the handler is also told the server's own URL (for the links it
 * answers).
 */
export function listenLocal(
  handler: (req: IncomingMessage, res: ServerResponse, url: string) => unknown,
): Promise<LocalServer> {
  let url = '';
  const server = createServer((req, res) => void handler(req, res, url));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({ url, server, close: () => new Promise<void>((done) => server.close(() => done())) });
    }),
  );
}

/**
 * Gives a fake a `mode` property kept in `state.mode` (how its next requests behave); `onSwitch` runs on every switch.
 */
export function withMode<F extends object, M>(
  fake: F,
  state: { mode: M },
  onSwitch: () => void = () => {},
): F & { mode: M } {
  return Object.defineProperty(fake, 'mode', {
    enumerable: true,
    get: () => state.mode,
    set: (m: M) => {
      state.mode = m;
      onSwitch();
    },
  }) as F & { mode: M };
}

/** A JSON answer; a string is sent as it is (a provider's non-JSON body under its JSON content type). */
export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof value === 'string' ? value : JSON.stringify(value));
}

/** A file's bytes, 200, with its content type. */
export function sendFile(res: ServerResponse, file: string, type: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, { ...headers, 'content-type': type });
  res.end(readFileSync(file));
}

/** What a broken proxy in front of a provider answers: 200 with an HTML page where JSON or media was due. */
export function sendProxyErrorPage(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<html>upstream proxy error</html>');
}

/** A file for `useTestMedia` to make: its name, and the ffmpeg arguments between `-v error` and `-y <file>`. */
export interface MediaSpec {
  name: string;
  args: string[];
}

/** An H.264 testsrc clip (320×240, 24 fps) of `seconds`; with `audio`, a sine AAC track as long. */
export function videoClip(name: string, seconds: number, o: { audio?: boolean } = {}): MediaSpec {
  const video = ['-f', 'lavfi', '-i', `testsrc=s=320x240:r=24:d=${seconds}`];
  if (!o.audio) return { name, args: [...video, '-pix_fmt', 'yuv420p', '-c:v', 'libx264'] };
  return {
    name,
    args: [
      ...video,
      '-f',
      'lavfi',
      '-i',
      `sine=d=${seconds}`,
      '-shortest',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-c:a',
      'aac',
    ],
  };
}

/** A mono sine tone of `seconds`: WAV, or a 128 kb/s MP3 when the name ends in .mp3; `sampleRate` when given. */
export function sineAudio(name: string, seconds: number, o: { sampleRate?: number } = {}): MediaSpec {
  const rate = o.sampleRate ? ['-ar', String(o.sampleRate)] : [];
  const codec = name.endsWith('.mp3') ? ['-c:a', 'libmp3lame', '-b:a', '128k'] : [];
  return { name, args: ['-f', 'lavfi', '-i', `sine=d=${seconds}`, '-ac', '1', ...rate, ...codec] };
}

/** One frame of a lavfi source as an image (by default a 64×64 test pattern; `color=c=white:s=64x64` makes a mask). */
export function stillImage(name: string, source = 'testsrc=s=64x64'): MediaSpec {
  return { name, args: ['-f', 'lavfi', '-i', source, '-frames:v', '1'] };
}

/**
 * A temp dir for the test file, with the given media made in it before its tests run and removed after them.
 * Answers each file's path by key at once (tables of cases may name them), and the dir (`dir`).
 */
export function useTestMedia<K extends string>(
  prefix: string,
  specs: Record<K, MediaSpec>,
): Record<K, string> & { dir: string } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const entries = Object.entries(specs) as Array<[K, MediaSpec]>;
  const paths = Object.fromEntries(entries.map(([key, spec]) => [key, path.join(dir, spec.name)])) as Record<K, string>;
  beforeAll(async () => {
    const ff = ffmpegTools()!.ffmpeg;
    for (const [key, spec] of entries) await runTool(ff, ['-v', 'error', ...spec.args, '-y', paths[key]]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return { ...paths, dir };
}

/** Uploads a file through the playground, as a user would; answers our own (private) media URL for it. */
export async function uploadMedia(t: TasksTestApp, user: TestUser, file: string): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([readFileSync(file)]), path.basename(file));
  const res = await t.app.request('/api-playground/file/v1/upload', {
    method: 'POST',
    headers: { token: user.token },
    body: form,
  });
  return ((await res.json()) as { data: { url: string } }).data.url;
}

/** A public API call (/api/async/<tool>) as a customer makes it; answers the new task's id. */
export async function submitTool(t: TasksTestApp, apiKey: string, tool: string, body: unknown): Promise<string> {
  const res = await t.app.request(`/api/async/${tool}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { message: string; data: { taskId: string } };
  expect(res.status, answer.message).toBe(200);
  return answer.data.taskId;
}

/** A playground call (/api-playground/<route>) with the user's session, JSON in. */
export async function postPlayground(t: TasksTestApp, user: TestUser, route: string, body: unknown): Promise<Response> {
  return t.app.request(`/api-playground/${route}`, {
    method: 'POST',
    headers: { token: user.token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The `data` of the public getAsyncResult for a task. */
export async function asyncResult<T>(t: TasksTestApp, apiKey: string, taskId: string): Promise<T> {
  const res = await t.app.request('/api/getAsyncResult', {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ taskId }),
  });
  return ((await res.json()) as { data: T }).data;
}

/** The result media rows a task stored (the poster frame stored beside a video is not a result). */
export function taskMedia(t: Pick<TasksTestApp, 'database'>, taskId: string) {
  return t.database.db
    .selectFrom('media')
    .selectAll()
    .where('task_id', '=', taskId)
    .where('poster_of', 'is', null)
    .execute();
}

/**
 * A failed task of a user with no other task: its reason, nothing charged, no media, and the ledger is the grant,
 * this task's hold and its refund in full (ledger sum = balance = the grant). A `free` feature holds nothing.
 */
export async function expectFailedAndRefunded(
  t: Pick<TasksTestApp, 'database'>,
  user: TestUser,
  taskId: string,
  reasonPart: string,
  o: { free?: boolean } = {},
) {
  const task = await waitForTask(t, taskId);
  expect(task.status, task.error ?? '').toBe('failed');
  expect(task.error).toContain(reasonPart);
  expect(task.credits_charged).toBe(0);
  expect(await taskMedia(t, taskId)).toHaveLength(0);
  const credits = await expectCharged(t, user, 0);
  const row = (l: { reason: string; reference: string | null; delta: number }) => [l.reason, l.reference, l.delta];
  const own = o.free
    ? []
    : [
        ['task-hold', taskId, -task.credits_held],
        ['task-refund', taskId, task.credits_held],
      ];
  expect(credits.ledger.map(row)).toEqual([...credits.ledger.filter((l) => l.reason === 'grant').map(row), ...own]);
  return task;
}

/** A logger that keeps its warn lines, for tests of what only operators read. */
export function capturedLog() {
  const lines: Array<{ msg: string; fields?: Record<string, unknown> }> = [];
  return { lines, warn: (msg: string, fields?: Record<string, unknown>) => void lines.push({ msg, fields }) };
}
