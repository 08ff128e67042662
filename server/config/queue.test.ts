// Role and job queue settings: embedded defaults, pg-boss only on PostgreSQL, clear refusals.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '.';
import { TASK_QUEUE } from '../../src/lib/product-rules';

describe('ROLE and QUEUE', () => {
  it('default to one process doing everything on the in-process queue', () => {
    const { queue } = loadConfig({});
    expect(queue.role).toBe('all');
    expect(queue.kind).toBe('in-process');
    expect(queue.leaseS).toBe(TASK_QUEUE.leaseS);
  });

  it('a PostgreSQL database keeps the in-process queue unless QUEUE=pg-boss is set', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).queue.kind).toBe('in-process');
    const { queue } = loadConfig({
      DATABASE_URL: 'postgres://u@h/db',
      QUEUE: 'pg-boss',
      ROLE: 'worker',
      QUEUE_LEASE_S: '30',
      QUEUE_CHECK_S: '5',
    });
    expect(queue).toMatchObject({ kind: 'pg-boss', role: 'worker', leaseS: 30, checkS: 5 });
  });

  it('refuses pg-boss on SQLite, saying what it needs', () => {
    expect(() => loadConfig({ QUEUE: 'pg-boss' })).toThrow(ConfigError);
    expect(() => loadConfig({ QUEUE: 'pg-boss' })).toThrow('QUEUE: pg-boss needs a PostgreSQL DATABASE_URL');
  });

  it.each([
    ['ROLE', 'web'],
    ['QUEUE', 'bullmq'],
    ['QUEUE_LEASE_S', '5'],
    ['QUEUE_SCHEMA', 'Bad-Schema'],
  ])('refuses %s=%s and names the variable', (name, value) => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db', [name]: value })).toThrow(name);
  });
});
