// A request body cap decided by the headers where they state the size; routes/body-cap.ts and the collector refuse with
// their own codes.
import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { whileReading } from './cut-off';

/**
 * A body cap with its own refusal (the collector answers its tracking 413 code): decided by the headers where they
 * state the size, counted as it arrives only for a body of unstated length, as routes/body-cap.ts explains.
 */
export function cappedBody(maxBytes: number, refuse: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const counted = bodyLimit({ maxSize: maxBytes, onError: refuse });
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const length = statedLength(c);
    // Counting reads the body before the route runs: a client that leaves midway is refused there (cut-off.ts).
    if (length === 'unknown') return whileReading(c, () => counted(c, next));
    return length > maxBytes ? refuse(c) : next();
  };
}

/**
 * The body's size as its headers state it. On a Node connection HTTP/1.1 framing decides: Transfer-Encoding means a
 * body of unstated length, else Content-Length (checked by Node's parser) is the size, and neither means no body.
 * A Request built in a test may carry a body without Content-Length, so there only a stated length counts.
 */
function statedLength(c: Context): number | 'unknown' {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming?.headers) {
    const { 'transfer-encoding': chunked, 'content-length': length } = incoming.headers;
    if (chunked !== undefined) return 'unknown';
    return length === undefined ? 0 : Number(length);
  }
  const headers = c.req.raw.headers;
  const length = headers.get('content-length');
  return length !== null && /^\d+$/.test(length) && !headers.has('transfer-encoding') ? Number(length) : 'unknown';
}
