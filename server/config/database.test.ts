// Database connection settings: a pool size per role, DATABASE_POOL_MAX over it, LISTEN on DATABASE_DIRECT_URL when
// given.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '.';
import { DATABASE_POOL } from '../../src/lib/product-rules';

const pg = 'postgres://u@pooler:6432/db';

describe('DATABASE_POOL_MAX and DATABASE_DIRECT_URL', () => {
  it('size the pools by role: an api process keeps pg-boss to a few connections, a worker gives it a full pool', () => {
    const api = loadConfig({ DATABASE_URL: pg, QUEUE: 'pg-boss', ROLE: 'api' }).database;
    expect(api).toEqual({
      poolMax: DATABASE_POOL.maxByRole.api,
      queuePoolMax: DATABASE_POOL.queueSenderMax,
      listenUrl: pg,
    });
    const worker = loadConfig({ DATABASE_URL: pg, QUEUE: 'pg-boss', ROLE: 'worker' }).database;
    expect(worker).toEqual({
      poolMax: DATABASE_POOL.maxByRole.worker,
      queuePoolMax: DATABASE_POOL.maxByRole.worker,
      listenUrl: pg,
    });
    expect(loadConfig({}).database.poolMax).toBe(DATABASE_POOL.maxByRole.all);
  });

  it('DATABASE_POOL_MAX overrides the default; LISTEN goes to DATABASE_DIRECT_URL', () => {
    const direct = 'postgres://u@primary:5432/db';
    const { database } = loadConfig({
      DATABASE_URL: pg,
      ROLE: 'worker',
      DATABASE_POOL_MAX: '3',
      DATABASE_DIRECT_URL: direct,
    });
    expect(database).toEqual({ poolMax: 3, queuePoolMax: 3, listenUrl: direct });
    expect(loadConfig({ DATABASE_URL: pg, ROLE: 'api', DATABASE_POOL_MAX: '1' }).database.queuePoolMax).toBe(1);
  });

  it.each([
    ['DATABASE_POOL_MAX', '0'],
    ['DATABASE_POOL_MAX', 'lots'],
    ['DATABASE_DIRECT_URL', 'mysql://u@h/db'],
  ])('refuses %s=%s and names the variable', (name, value) => {
    expect(() => loadConfig({ DATABASE_URL: pg, [name]: value })).toThrow(name);
  });

  it('refuses DATABASE_DIRECT_URL on SQLite', () => {
    expect(() => loadConfig({ DATABASE_DIRECT_URL: 'postgres://u@h/db' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_DIRECT_URL: 'postgres://u@h/db' })).toThrow('DATABASE_DIRECT_URL');
  });
});
