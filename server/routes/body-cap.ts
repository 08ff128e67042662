// The general body cap each route area applies to its JSON and form bodies; file uploads use their own
// (task-context.ts).
import type { MiddlewareHandler } from 'hono';
import { ERROR_CODES, ERROR_MESSAGES } from '../../src/lib/product-rules';
import { cappedBody } from '../http/capped-body';
import { errorEnvelope } from '../http/errors';

/**
 * Refuses a body over `maxBytes` (BODY_LIMIT_BYTES) with 413 and the §8 envelope. It answers itself rather than
 * throwing, so an area with its own error handler (the public API) sends the same 413 as every other path.
 *
 * Most requests are decided by their headers alone: none has a body (GET, HEAD) or Content-Length states its size,
 * which Node's parser holds the body to. Only then is the request's body left alone, so the Node adapter can read
 * it straight from the socket when a route asks, instead of first wrapping it in a web stream the way counting
 * it would. A body of unstated length (chunked) is counted as it arrives by Hono's bodyLimit. `shape` makes the
 * envelope: the §8 one by default, the public API's own there.
 */
export function bodyCap(
  maxBytes: number,
  shape: (code: number, message: string) => object = errorEnvelope,
): MiddlewareHandler {
  return cappedBody(maxBytes, (c) =>
    c.json(
      shape(ERROR_CODES.payloadTooLarge, `${ERROR_MESSAGES.payloadTooLarge}: the limit is ${maxBytes} bytes`),
      413,
    ),
  );
}
