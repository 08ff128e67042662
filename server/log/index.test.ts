// The logger writes one JSON line per event whatever its fields hold, and its own keys cannot be replaced by a field.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, logLine, RESERVED_FIELD_PREFIX, withRequestId } from './index';

afterEach(() => vi.restoreAllMocks());

/** The lines a logger writes to stdout and stderr while `fn` runs, parsed. */
function written(fn: () => void): Array<Record<string, unknown>> {
  const lines: string[] = [];
  const take = (chunk: unknown) => (lines.push(String(chunk)), true);
  vi.spyOn(process.stdout, 'write').mockImplementation(take);
  vi.spyOn(process.stderr, 'write').mockImplementation(take);
  fn();
  vi.restoreAllMocks();
  return lines.map((l) => {
    expect(l.endsWith('\n') && !l.slice(0, -1).includes('\n')).toBe(true);
    return JSON.parse(l) as Record<string, unknown>;
  });
}

describe('createLogger', () => {
  it('logs BigInt, circular and Error fields instead of throwing or writing {}', () => {
    const log = createLogger('info');
    const job: Record<string, unknown> = { id: 'j1' };
    job.self = job;
    const lines = written(() => {
      log.info('credits moved', { amount: 12n });
      log.warn('job state', { job });
      log.error('upload failed', { error: new RangeError('too long') });
    });
    expect(lines.map((l) => l.msg)).toEqual(['credits moved', 'job state', 'upload failed']);
    expect(lines[0]!.amount).toBe('12');
    expect(lines[1]!.job).toEqual({ id: 'j1', self: '[Circular]' });
    expect(lines[2]!.error).toMatchObject({
      name: 'RangeError',
      message: 'too long',
      stack: expect.stringContaining('too long'),
    });
  });

  it('keeps its own time, level, msg and request id when fields carry the same names', () => {
    const log = createLogger('debug');
    const [line] = written(() =>
      withRequestId('req-1', () =>
        log.warn('provider answered', { time: 5, level: 'debug', msg: 'forged', requestId: 'fal-9', engine: 'fal' }),
      ),
    );
    expect(line).toMatchObject({ level: 'warn', msg: 'provider answered', requestId: 'req-1', engine: 'fal' });
    expect(Date.parse(line!.time as string)).not.toBeNaN();
    expect(line).toMatchObject({
      [`${RESERVED_FIELD_PREFIX}time`]: 5,
      [`${RESERVED_FIELD_PREFIX}level`]: 'debug',
      [`${RESERVED_FIELD_PREFIX}msg`]: 'forged',
      [`${RESERVED_FIELD_PREFIX}requestId`]: 'fal-9',
    });
    expect(Object.keys(line!).slice(0, 4)).toEqual(['time', 'level', 'msg', 'requestId']);
  });

  it('filters by level and sends warnings and errors to stderr', () => {
    const log = createLogger('warn');
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    log.info('hidden');
    log.error('shown');
    expect(out).not.toHaveBeenCalled();
    expect(err).toHaveBeenCalledTimes(1);
  });
});

describe('logLine', () => {
  it('still writes the event when a field cannot be serialized, saying why; a __proto__ field is only a key', () => {
    const bad = {
      toJSON: () => {
        throw new Error('no JSON for you');
      },
    };
    const line = JSON.parse(
      logLine('2026-01-01T00:00:00.000Z', 'error', 'payment failed', undefined, { bad }),
    ) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'error',
      msg: 'payment failed',
      logError: expect.stringContaining('no JSON for you'),
    });
    const proto = JSON.parse(
      logLine(
        '2026-01-01T00:00:00.000Z',
        'info',
        'm',
        undefined,
        JSON.parse('{"__proto__": {"polluted": 1}}') as Record<string, unknown>,
      ),
    ) as Record<string, unknown>;
    expect(Object.hasOwn(proto, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
