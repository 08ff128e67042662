// Configuration: defaults that work locally, and a clear refusal of invalid values.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '.';

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
