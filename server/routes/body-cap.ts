// The general body cap each route area applies to its JSON and form bodies; file uploads use their own (task-context.ts).
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ERROR_CODES, ERROR_MESSAGES } from '../../src/lib/spec';
import { envelope } from '../http/errors';

/**
 * Refuses a body over `maxBytes` (BODY_LIMIT_BYTES) with 413 and the §8 envelope. It answers itself rather than
 * throwing, so an area with its own error handler (the public API) sends the same 413 as every other path.
 */
export function bodyCap(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) => c.json(envelope(ERROR_CODES.payloadTooLarge, `${ERROR_MESSAGES.payloadTooLarge}: the limit is ${maxBytes} bytes`), 413),
  });
}
