// A 413 on a real connection: announced with Connection: close, then closed with FIN while the client is still
// uploading, never reset.
import net from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BODY } from '../routes/task-context';
import { createTestApp } from '../test-support/app';
import { createTasksTestApp, createUser } from '../test-support/tasks';

interface Closing {
  close(): Promise<void>;
}
const opened: Closing[] = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

async function listen(fetch: (request: Request, env: unknown) => Response | Promise<Response>): Promise<number> {
  const server: ServerType = serve({ fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  opened.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  if ('closeAllConnections' in server) opened.push({ close: async () => server.closeAllConnections() });
  return (server.address() as net.AddressInfo).port;
}

interface Upload {
  /** Status line and headers of the answer, lower-cased header names. */
  status: number;
  headers: Record<string, string>;
  /** The server ended the connection with FIN. */
  ended: boolean;
  /** Socket errors seen by the client (ECONNRESET, EPIPE): none when the server closed cleanly. */
  errors: string[];
  bytesSent: number;
}

/**
 * Announces a body of `declared` bytes on a keep-alive connection and keeps sending it as fast as the
 * connection takes it, like an uploading client, until the server closes its side.
 */
function oversizedUpload(
  port: number,
  path: string,
  declared: number,
  headers: Record<string, string> = {},
): Promise<Upload> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const result: Upload = { status: 0, headers: {}, ended: false, errors: [], bytesSent: 0 };
    let received = '';
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = () => {
      while (!result.ended && socket.writable && result.bytesSent < declared) {
        const size = Math.min(chunk.length, declared - result.bytesSent);
        result.bytesSent += size;
        if (!socket.write(chunk.subarray(0, size))) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      const lines = [
        `POST ${path} HTTP/1.1`,
        'Host: 127.0.0.1',
        'Connection: keep-alive',
        'Content-Type: application/octet-stream',
        `Content-Length: ${declared}`,
      ];
      for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
      socket.write(lines.join('\r\n') + '\r\n\r\n');
      pump();
    });
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.on('end', () => (result.ended = true));
    socket.on('error', (error: NodeJS.ErrnoException) => result.errors.push(error.code ?? error.message));
    socket.on('close', () => {
      const [head = ''] = received.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      result.status = Number(statusLine.split(' ')[1]);
      for (const line of headerLines) {
        const at = line.indexOf(':');
        result.headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve(result);
    });
  });
}

describe('a 413 on a real connection', () => {
  it('over the general body cap: Connection: close, then FIN without a reset, and the next connection works', async () => {
    const t = await createTestApp({ BODY_LIMIT_BYTES: '2048' });
    opened.push(t);
    const port = await listen(t.app.fetch);
    const upload = await oversizedUpload(port, '/user/infoUpdate', 32 * 1024 * 1024);
    expect(upload).toMatchObject({ status: 413, ended: true, errors: [] });
    expect(upload.headers.connection).toBe('close');
    expect(upload.headers['keep-alive']).toBeUndefined();
    const next = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(next.status).toBe(200);
  });

  it('over the upload cap of the file routes, refused by their own limit', async () => {
    const t = await createTasksTestApp();
    opened.push(t);
    const user = await createUser(t, 0);
    const port = await listen(t.app.fetch);
    const upload = await oversizedUpload(port, '/api/file/v1/upload', MAX_UPLOAD_BODY + 1, {
      Authorization: `Bearer ${user.apiKey}`,
    });
    expect(upload).toMatchObject({ status: 413, ended: true, errors: [] });
    expect(upload.headers.connection).toBe('close');
  });
});
