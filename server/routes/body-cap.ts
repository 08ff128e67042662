// The general body cap each route area applies to its JSON and form bodies; file uploads use their own (task-context.ts).
import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ERROR_CODES, ERROR_MESSAGES } from '../../src/lib/spec';
import { envelope } from '../http/errors';

/**
 * Refuses a body over `maxBytes` (BODY_LIMIT_BYTES) with 413 and the §8 envelope. It answers itself rather than
 * throwing, so an area with its own error handler (the public API) sends the same 413 as every other path.
 *
 * Most requests are decided by their headers alone: none has a body (GET, HEAD) or Content-Length states its size,
 * which Node's parser holds the body to. Only then is the request's body left alone, so the Node adapter can read
 * it straight from the socket when a route asks, instead of first wrapping it in a web stream the way counting
 * it would. A body of unstated length (chunked) is counted as it arrives by Hono's bodyLimit.
 */
export function bodyCap(maxBytes: number): MiddlewareHandler {
  const onError = (c: Context) => c.json(envelope(ERROR_CODES.payloadTooLarge, `${ERROR_MESSAGES.payloadTooLarge}: the limit is ${maxBytes} bytes`), 413);
  const counted = bodyLimit({ maxSize: maxBytes, onError });
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const length = statedLength(c);
    if (length === 'unknown') return counted(c, next);
    return length > maxBytes ? onError(c) : next();
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
