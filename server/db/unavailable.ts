// Tells a database that cannot be reached (refused, reset, restarting, timed out) from a query that failed on its own
// merits.

/** SQLSTATE classes and codes of PostgreSQL that mean the server or the connection, not the statement, failed. */
const UNREACHABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Node socket errors of a server that is down, restarting or cut off. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** What pg says when a connection ends under it or a pooled connection is not had in time (it gives these no code). */
const PG_MESSAGES = [
  /^Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /^Client has encountered a connection error/i,
  /Connection ended/i,
];

/**
 * True when `error` (or an error it was caused by) says PostgreSQL is unreachable: the request may be tried again once
 * it answers. SQLite never fails this way. Follows `cause` a few levels, since callers wrap errors.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (
      typeof e.code === 'string' &&
      (UNREACHABLE_SQLSTATES.has(e.code) || e.code.startsWith('08') || SOCKET_CODES.has(e.code))
    )
      return true;
    if (typeof e.message === 'string' && PG_MESSAGES.some((m) => m.test(e.message as string))) return true;
    // A connection to a host with several addresses fails with every attempt gathered in an AggregateError.
    if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = e.cause;
  }
  return false;
}
