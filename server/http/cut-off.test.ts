// A client that leaves before sending its whole body, on a real connection: the call is logged as a refused request
// (400), never a 500 or an error line.
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ERROR_CODES } from '../../src/lib/product-rules';
import { listen, type Listening } from '../test-support/listen';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../test-support/tasks';

let t: TasksTestApp;
let user: TestUser;
let server: Listening;
let errorLines: string[];
/** Resolves when the server has read the next request's head and handed it to the app. */
let arrived: Promise<void>;
let onArrival = () => {};
/** Resolves with the status the app answered the next request with (sent or not: the client may be gone). */
let answered: Promise<number>;
let onAnswer: (status: number) => void = () => {};

beforeEach(async () => {
  // Error lines are what an operator's alerting reads; this test collects them.
  t = await createTasksTestApp({ env: { LOG_LEVEL: 'error', RATE_LIMIT_PER_MINUTE: '1000' } });
  user = await createUser(t, 10);
  arrived = new Promise((resolve) => (onArrival = resolve));
  answered = new Promise((resolve) => (onAnswer = resolve));
  server = await listen(async (req, env) => {
    onArrival();
    const res = await t.app.fetch(req, env);
    onAnswer(res.status);
    return res;
  });
  errorLines = [];
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (String(chunk).includes('"level":"error"')) errorLines.push(String(chunk));
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await server.close();
  await t.close();
});

/** Sends the head and part of a body on a raw socket, then closes the connection without sending the rest. */
async function leaveMidBody(head: string, part: string): Promise<void> {
  const socket = net.connect(server.port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(head + part);
  // The server must have taken the head in before the connection goes, or there would be no request to answer.
  await arrived;
  socket.destroy();
}

async function requestLog(): Promise<Array<{ tool: string; status: number; code: number }>> {
  const res = await t.app.request('/apply/requests', {
    method: 'POST',
    headers: { 'content-type': 'application/json', token: user.token },
    body: '{}',
  });
  return ((await res.json()) as { data: { list: Array<{ tool: string; status: number; code: number }> } }).data.list;
}

const head = (extra: string) =>
  `POST /api/remaining_credits HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAuthorization: Bearer ${user.apiKey}\r\n${extra}\r\n`;

describe('a body cut off by its client', () => {
  it('with a stated Content-Length is answered 400 and is a refused call in the request log, not a server error', async () => {
    await leaveMidBody(head('Content-Length: 100\r\n'), '{"a":');
    expect(await answered).toBe(400);
    const list = await vi.waitFor(async () => {
      const entries = await requestLog();
      expect(entries.length).toBe(1);
      return entries;
    });
    expect(list[0]).toMatchObject({ tool: 'remaining_credits', status: 400, code: ERROR_CODES.invalidInput });
    expect(errorLines).toEqual([]);
  });

  it('chunked, while the body cap counts it (before the key check), is answered 400 without an error line', async () => {
    await leaveMidBody(head('Transfer-Encoding: chunked\r\n'), '5\r\n{"a":\r\n');
    expect(await answered).toBe(400);
    expect(errorLines).toEqual([]);
  });

  it('leaves a whole request on the same kind of connection alone', async () => {
    const socket = net.connect(server.port, '127.0.0.1');
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (part) => {
        text += String(part);
        if (text.includes('\r\n\r\n{')) resolve(text);
      });
      socket.write(head('Content-Length: 2\r\nConnection: close\r\n') + '{}');
    });
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('"remainingCredits":10');
  });
});
