// Playground calls share the client's SPEC.md §7 10 s timeout: a server that never answers ends in §8's network
// message.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, REQUEST } from '../product-rules';
import { playgroundApi } from './playground';

let server: Server;
const seen: string[] = [];

beforeEach(async () => {
  seen.length = 0;
  // Reads each request and never answers it.
  server = createServer((req) => void seen.push(`${req.method} ${req.url}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  vi.stubEnv('PUBLIC_API_BASE', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The call's outcome once the server has its request and the clock has passed `ms`. */
async function after<T>(call: Promise<T>, path: string, ms: number): Promise<unknown> {
  const outcome = call.then(
    () => 'answered',
    (error: unknown) => error,
  );
  await vi.waitFor(() => expect(seen.some((s) => s.endsWith(path))).toBe(true), { interval: 5 });
  await vi.advanceTimersByTimeAsync(ms);
  return outcome;
}

describe('playground call timeout', () => {
  it("GET features gives up after 10 s with 'Network error，Please try again later'", async () => {
    expect(await after(playgroundApi.features(), '/api-playground/task/v1/features', REQUEST.timeoutMs)).toMatchObject({
      message: MESSAGES.networkError,
      code: null,
    });
    expect(seen).toEqual(['GET /api-playground/task/v1/features']);
  });

  it('a POST gives up after 10 s the same way', async () => {
    expect(
      await after(playgroundApi.poll('t1'), '/api-playground/video_tools/v1/poll', REQUEST.timeoutMs),
    ).toMatchObject({ message: MESSAGES.networkError });
  });
});
