// Log JSON that cannot throw: BigInt, cycles and Errors are written, not fatal and not lost as `{}`.
import { describe, expect, it } from 'vitest';
import { CIRCULAR, safeStringify } from './serialize';

describe('safeStringify', () => {
  it('writes a BigInt as its digits in a string, exactly', () => {
    expect(JSON.parse(safeStringify({ credits: 2n ** 64n, list: [1n] }))).toEqual({
      credits: '18446744073709551616',
      list: ['1'],
    });
  });

  it('writes an object inside itself as "[Circular]", but the same object twice side by side in full', () => {
    const task: Record<string, unknown> = { id: 't1' };
    task.self = task;
    task.nested = { parent: task, list: [task] };
    expect(JSON.parse(safeStringify({ task }))).toEqual({
      task: { id: 't1', self: CIRCULAR, nested: { parent: CIRCULAR, list: [CIRCULAR] } },
    });
    const shared = { n: 1 };
    expect(JSON.parse(safeStringify({ a: shared, b: shared, c: [shared, shared] }))).toEqual({
      a: { n: 1 },
      b: { n: 1 },
      c: [{ n: 1 }, { n: 1 }],
    });
  });

  it('writes an Error as its name, message and stack, with its code and cause', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const error = new TypeError('upload failed', { cause });
    const written = JSON.parse(safeStringify({ error })) as {
      error: Record<string, unknown> & { cause: Record<string, unknown> };
    };
    expect(written.error).toMatchObject({ name: 'TypeError', message: 'upload failed' });
    expect(written.error.stack).toContain('upload failed');
    expect(written.error.cause).toMatchObject({ name: 'Error', message: 'connect ECONNREFUSED', code: 'ECONNREFUSED' });
  });

  it('catches an Error that is its own cause', () => {
    const error = new Error('loop');
    error.cause = error;
    expect((JSON.parse(safeStringify(error)) as { cause: unknown }).cause).toBe(CIRCULAR);
  });

  it('writes plain values as JSON.stringify does', () => {
    const plain = { s: 'x"\n', n: 1.5, b: true, z: null, d: new Date(0), a: [1, 'two'], skipped: undefined };
    expect(safeStringify(plain)).toBe(JSON.stringify(plain));
  });
});
