// Configuration: defaults that work locally, and a clear refusal of invalid values.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '.';
import { SIGNUP_CREDITS_DEFAULT } from '../../src/lib/product-rules';

describe('loadConfig', () => {
  it('defaults to port 8787, embedded SQLite under ./data and the built site in ./dist', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8787);
    expect(config.databaseUrl).toBe(`sqlite:${path.resolve('data', 'app.db')}`);
    expect(config.siteDir).toBe(path.resolve('dist'));
    expect(config.publicUrl).toBe('http://localhost:8787');
    expect(config.siteOrigins).toEqual(['http://localhost:8787']);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(8787);
  });

  it('uses DATABASE_URL when given (PostgreSQL)', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).databaseUrl).toBe('postgres://u@h/db');
  });

  it('splits SITE_ORIGINS on commas', () => {
    expect(loadConfig({ SITE_ORIGINS: 'https://a.example, https://b.example' }).siteOrigins).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['LOG_LEVEL', 'loud'],
    ['PUBLIC_URL', 'not a url'],
    ['TRUST_PROXY', 'maybe'],
    ['BODY_LIMIT_BYTES', '10'],
  ])('refuses %s=%s and names the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('what new accounts and runs with no AI model cost (SIGNUP_CREDITS, NO_MODEL_PRICE)', () => {
  it('grants the spec default to new accounts and makes no-model runs free unless told otherwise', () => {
    expect(loadConfig({}).signupCredits).toBe(SIGNUP_CREDITS_DEFAULT);
    expect(loadConfig({}).tasks.noModelPrice).toBe('free');
    expect(loadConfig({ SIGNUP_CREDITS: '0', NO_MODEL_PRICE: 'full' })).toMatchObject({
      signupCredits: 0,
      tasks: { noModelPrice: 'full' },
    });
  });

  it.each([
    ['SIGNUP_CREDITS', '-5'],
    ['SIGNUP_CREDITS', '2.5'],
    ['NO_MODEL_PRICE', 'half'],
  ])('refuses %s=%s and names the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('shared request budgets (REDIS_URL, REDIS_PREFIX)', () => {
  it('count in memory without REDIS_URL, in Redis under the default prefix with it', () => {
    expect(loadConfig({}).redis).toBeNull();
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      prefix: 'dreamapi:',
    });
    expect(loadConfig({ REDIS_URL: 'rediss://cache.example:6380/2', REDIS_PREFIX: 'eu-1:' }).redis).toEqual({
      url: 'rediss://cache.example:6380/2',
      prefix: 'eu-1:',
    });
  });

  it.each([
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['REDIS_URL', 'not a url'],
    ['REDIS_PREFIX', 'has space'],
  ])('refuses %s=%s and names the variable', (name, value) => {
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', [name]: value })).toThrow(name);
  });
});
