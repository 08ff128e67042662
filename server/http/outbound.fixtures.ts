// Shared set-up of the outbound guard tests: real local HTTP listeners that record what reaches them, and the
// policy, signal and refusal helpers those tests use.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect } from 'vitest';
import type { MediaService } from '../media';
import { inputReader } from '../tasks/input-media';
import { silentWav } from '../test-support/wav';
import { OutboundRefused, type OutboundPolicy } from './outbound';

export interface Listener {
  server: Server;
  port: number;
  hits: Array<{ url: string; host: string | undefined; headers: IncomingHttpHeaders }>;
}

/** A real HTTP listener recording every request; `answer` decides the reply. */
export async function listen(
  host: string,
  answer: (url: string) => { status: number; headers?: Record<string, string>; body?: Buffer | string },
  port = 0,
): Promise<Listener> {
  const hits: Listener['hits'] = [];
  const server = createServer((req, res) => {
    hits.push({ url: req.url ?? '', host: req.headers.host, headers: req.headers });
    const a = answer(req.url ?? '');
    res.writeHead(a.status, a.headers).end(a.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return { server, port: (server.address() as AddressInfo).port, hits };
}

/** listen() for one test at a time: every listener the answered function opens is closed after each test. */
export function useListeners() {
  const opened: Server[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => new Promise((r) => s.close(r))));
  });
  return async (...args: Parameters<typeof listen>) => {
    const l = await listen(...args);
    opened.push(l.server);
    return l;
  };
}

export const signal = () => AbortSignal.timeout(5000);
export const publicOnly: OutboundPolicy = { allowPrivate: false };
export const wav = silentWav(1, 8000);

/** The problem an outbound call was refused with (it must be refused). */
export async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundRefused);
  return (error as OutboundRefused).problem;
}

/** A task input reader that downloads under `policy`, as the task runner's does. */
export function inputReaderFor(policy: OutboundPolicy) {
  return inputReader({
    media: {} as MediaService /* only consulted for this server's own links */,
    publicUrl: 'http://own.example',
    outbound: policy,
  });
}
