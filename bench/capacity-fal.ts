// The capacity bench's fixed-time engine: a local stand-in for fal's queue API (submit, status, result, file) whose
// jobs take a fixed time.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

/** A PNG chunk: length, type, data, CRC of type and data (the PNG specification's layout). */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/**
 * A 1×1 grey PNG: recognised by its bytes alone (images are not run through ffprobe), so each task costs the worker no
 * CPU tool.
 */
function onePixelPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 0x80]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Where the bench reads the stand-in's own figures (not a fal route). */
export const FIGURES_PATH = '/__bench/figures';

export interface FalFigures {
  /**
   * Per finished job, ms from its submit reaching the stand-in to its image being fetched: the engine alone, no
   * platform.
   */
  engineMs: number[];
  /** Requests that were not fal's protocol as the adapter speaks it (a wrong key, an unknown job): should stay 0. */
  refused: number;
}

export interface FixedTimeFal {
  /** FAL_QUEUE_URL and FAL_STORAGE_URL of the servers under test. */
  url: string;
  key: string;
  close(): Promise<void>;
}

/**
 * fal's queue as fal-ai/fal-js speaks it (the same routes as server/engines/providers/fal.fixtures.ts): POST
 * /<model> queues a job and answers its request_id and URLs; GET …/requests/<id>/status answers IN_PROGRESS until
 * `jobMs` have passed since the submit, then COMPLETED; GET …/requests/<id> answers { images: [{ url }] }; the
 * image is served from /files/. The adapter polls at once and then on its backoff (PROVIDER_RETRY), so a job of
 * `jobMs` below the first poll interval is seen done at that poll: every task takes the same engine time.
 */
export async function startFixedTimeFal(jobMs: number): Promise<FixedTimeFal> {
  const key = 'capacity-bench-key';
  const png = onePixelPng();
  const jobs = new Map<string, number>();
  const state: FalFigures = { engineMs: [], refused: 0 };
  let seq = 0;
  let base = '';
  const server = createServer((req, res) => {
    const send = (status: number, value: unknown) => {
      if (status >= 400) state.refused++;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    // The body (the model's input) is not needed: the job's shape is fixed.
    req.resume();
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fal');
      if (url.pathname === FIGURES_PATH) return res.end(JSON.stringify(state));
      const file = /^\/files\/([^/]+)\.png$/.exec(url.pathname);
      if (req.method === 'GET' && file) {
        const submitted = jobs.get(file[1]!);
        if (submitted === undefined) return send(404, { detail: 'File not found' });
        jobs.delete(file[1]!);
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(png, () => state.engineMs.push(performance.now() - submitted));
        return;
      }
      if (req.headers.authorization !== `Key ${key}`) return send(401, { detail: 'Invalid key' });
      const job = /^\/([^/]+\/[^/]+)\/requests\/([^/]+?)(\/status|\/cancel)?$/.exec(url.pathname);
      if (req.method === 'POST' && !job) {
        const id = `req-${++seq}`;
        jobs.set(id, performance.now());
        const app = url.pathname.slice(1).split('/').slice(0, 2).join('/');
        const at = `${base}/${app}/requests/${id}`;
        return send(200, {
          request_id: id,
          status_url: `${at}/status`,
          response_url: at,
          cancel_url: `${at}/cancel`,
          queue_position: 0,
        });
      }
      const submitted = job ? jobs.get(job[2]!) : undefined;
      if (!job || submitted === undefined) return send(404, { detail: 'Request not found' });
      if (req.method === 'PUT' && job[3] === '/cancel') return send(202, { status: 'CANCELLATION_REQUESTED' });
      const done = performance.now() - submitted >= jobMs;
      if (req.method === 'GET' && job[3] === '/status')
        return send(200, done ? { status: 'COMPLETED' } : { status: 'IN_PROGRESS', logs: [] });
      if (req.method === 'GET' && !job[3] && done)
        return send(200, { images: [{ url: `${base}/files/${job[2]}.png`, content_type: 'image/png' }], seed: 7 });
      send(400, { detail: 'Request is still in progress' });
    });
  });
  // Idle connections are left for the client to close (undici after 4 s): a server closing first races a reused socket.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    key,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
