// A small structured logger: one JSON line per event on stdout/stderr, filtered by level, with the request id when
// there is one.
import { currentRequestId } from './request-context';
import { safeStringify } from './serialize';

export { currentRequestId, withRequestId } from './request-context';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Keys the logger writes itself; a field of the same name is written as `field_<name>` beside them. */
const RESERVED = new Set(['time', 'level', 'msg', 'requestId']);
export const RESERVED_FIELD_PREFIX = 'field_';

/** One log line's JSON: the logger's own keys first, then the fields, none of which can replace them. */
export function logLine(
  time: string,
  level: Exclude<LogLevel, 'silent'>,
  msg: string,
  requestId: string | undefined,
  fields?: Record<string, unknown>,
): string {
  // No prototype: a field named __proto__ is then an ordinary key, not a change of prototype.
  const line: Record<string, unknown> = Object.assign(Object.create(null) as Record<string, unknown>, {
    time,
    level,
    msg,
  });
  // A line written while answering a request names it (X-Request-Id), so a user's report leads to its lines.
  if (requestId !== undefined) line.requestId = requestId;
  for (const [key, value] of Object.entries(fields ?? {}))
    line[RESERVED.has(key) ? RESERVED_FIELD_PREFIX + key : key] = value;
  try {
    return safeStringify(line);
  } catch (error) {
    // A field whose getter or toJSON() throws: the event is still logged, with why its fields are missing.
    return safeStringify({
      time,
      level,
      msg,
      requestId,
      logError: `fields could not be written: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
}

export function createLogger(level: LogLevel): Logger {
  const write = (at: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return;
    const line = logLine(new Date().toISOString(), at, msg, currentRequestId(), fields);
    (at === 'error' || at === 'warn' ? process.stderr : process.stdout).write(line + '\n');
  };
  return {
    debug: (msg, fields) => write('debug', msg, fields),
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
  };
}
