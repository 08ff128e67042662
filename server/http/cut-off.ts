// A body cut off by its client (the connection closed before the body its headers announced) is a 400, never a server
// error.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { ERROR_CODES, ERROR_MESSAGES } from '../../src/lib/product-rules';
import { AppError } from './errors';

/**
 * Whether the client went away before its request was complete. Decided by the connection's state, not by the
 * error a read threw, so a failure of anything else (an outbound call, the database) is never taken for one.
 */
export function requestCutOff(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming !== undefined && !incoming.complete && (incoming.destroyed || incoming.socket?.destroyed === true);
}

const cutOff = () => new AppError(400, ERROR_CODES.invalidInput, ERROR_MESSAGES.bodyCutOff);

/**
 * Runs a read of the request body; when it fails because the client left, throws the 400 `refuse` makes instead,
 * so the error log, the metrics and the account's request log show a refused request, not a 500.
 */
export async function whileReading<T>(c: Context, read: () => Promise<T>, refuse: () => AppError = cutOff): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof AppError) && requestCutOff(c)) throw refuse();
    throw error;
  }
}
