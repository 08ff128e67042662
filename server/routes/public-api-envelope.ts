// The public API's answer envelope ({code, message, msg, data}), its refusals and error handler, and its field checks.
import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError, asOutage } from '../http/errors';
import { describeIssue, validate } from '../http/input';
import { currentRequestId, type Logger } from '../log';
import { ERROR_CODES, ERROR_MESSAGES, PUBLIC_API_CODES } from '../../src/lib/product-rules';

/** DreamAPI's envelope is {code, message, data}; `msg` repeats the message for clients of the §8 envelope. */
function answer(code: number, message: string, data: unknown = null) {
  return { code, message, msg: message, data };
}
export const success = (data: unknown) => answer(0, 'success', data);
/** A refusal also names the request (X-Request-Id), which a user can quote to support. */
export const refusal = (code: number, message: string) => {
  const requestId = currentRequestId();
  return requestId === undefined ? answer(code, message) : { ...answer(code, message), requestId };
};

export function publicErrors(log: Logger) {
  return (thrown: Error, c: Context) => {
    const err = asOutage(thrown, log) ?? thrown;
    if (err instanceof AppError) {
      for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
      return c.json(refusal(err.code, err.message), err.status);
    }
    log.error('unhandled error', { method: c.req.method, path: c.req.path, error: err.stack ?? String(err) });
    return c.json(refusal(ERROR_CODES.internal, ERROR_MESSAGES.internal), 500);
  };
}

/** DreamAPI refuses bad parameters with 10192 "Illegal parameter"; we keep the code and name the field. */
export const ILLEGAL_PARAMETER = PUBLIC_API_CODES.illegalParameter;
export function body<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = validate(schema, raw);
  if (!result.success)
    throw new AppError(400, ILLEGAL_PARAMETER, `Illegal parameter: ${describeIssue(result.error, raw)}`);
  return result.data;
}
