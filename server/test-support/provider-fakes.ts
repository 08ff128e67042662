// Plumbing for the local fakes of outside providers: serving on a free port, switchable modes, JSON, file and broken
// proxy answers, and a logger that keeps what operators read.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';

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

/** A logger that keeps its warn lines, for tests of what only operators read. */
export function capturedLog() {
  const lines: Array<{ msg: string; fields?: Record<string, unknown> }> = [];
  return { lines, warn: (msg: string, fields?: Record<string, unknown>) => void lines.push({ msg, fields }) };
}
