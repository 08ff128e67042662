// Typed failures and the one handler that turns any thrown error into the SPEC.md §8 envelope.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ERROR_CODES, ERROR_MESSAGES, OPERATIONS_MESSAGES, OUTAGES } from '../../src/lib/product-rules';
import { isDatabaseUnavailable } from '../db';
import { currentRequestId, type Logger } from '../log';

/** A failure a client can act on: its HTTP status, envelope code and message are sent as they are. */
export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export function invalidInput(message: string): AppError {
  return new AppError(400, ERROR_CODES.invalidInput, message);
}

export function envelope(code: number, msg: string, data: unknown = null) {
  return { code, msg, data };
}

/** A failure's envelope with the request's id (also in the X-Request-Id header), which a user can quote to support. */
export function errorEnvelope(code: number, msg: string) {
  const requestId = currentRequestId();
  return requestId === undefined ? envelope(code, msg) : { ...envelope(code, msg), requestId };
}

/**
 * PostgreSQL away (restart, failover, network) is no bug: the answer is 503 with Retry-After, and the client may send
 * the request again shortly. Null for any other error. Every error handler passes what it caught through this first.
 */
export function asOutage(error: Error, log: Logger): AppError | null {
  // An AppError is already the answer: media storage's 503 keeps its own message though its cause is a refused socket.
  if (error instanceof AppError || !isDatabaseUnavailable(error)) return null;
  log.warn('database unreachable', { error: error.message });
  return new AppError(503, ERROR_CODES.unavailable, OPERATIONS_MESSAGES.databaseUnavailable, {
    'Retry-After': String(OUTAGES.databaseRetryAfterS),
  });
}

/** Maps an error to a response; unknown errors are logged and answered without details (no stack traces). */
export function errorResponder(log: Logger) {
  return (thrown: Error, c: Context) => {
    const err = asOutage(thrown, log) ?? thrown;
    if (err instanceof AppError) {
      for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
      return c.json(errorEnvelope(err.code, err.message), err.status);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      const code =
        status === 413
          ? ERROR_CODES.payloadTooLarge
          : status === 401
            ? ERROR_CODES.notLoggedIn
            : ERROR_CODES.invalidInput;
      const message = status === 413 ? ERROR_MESSAGES.payloadTooLarge : err.message || 'Bad request';
      return c.json(errorEnvelope(code, message), status < 500 ? status : 400);
    }
    log.error('unhandled error', { method: c.req.method, path: c.req.path, error: err.stack ?? String(err) });
    return c.json(errorEnvelope(ERROR_CODES.internal, ERROR_MESSAGES.internal), 500);
  };
}
