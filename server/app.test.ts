// The app's shared behaviour: health, the §8 envelope for every failure, body caps, CORS and security headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/lib/spec/errors';
import { createTestApp, type TestApp } from './test-support/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT_BYTES: '2048', SITE_ORIGINS: 'https://site.example' });
});
afterAll(() => t.close());

describe('GET /healthz', () => {
  it('answers ok with the database engine', async () => {
    const res = await t.app.request('/healthz');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ code: 0, data: { status: 'ok', database: { engine: 'sqlite', up: true } } });
  });

  it('answers 503 with the envelope when the database is gone', async () => {
    const broken = await createTestApp();
    await broken.database.close();
    const res = await broken.app.request('/healthz');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: ERROR_CODES.unavailable, data: { status: 'degraded' } });
  });
});

describe('unknown routes', () => {
  it('get a 404 envelope for API clients', async () => {
    const res = await t.app.request('/no/such/route', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: ERROR_CODES.notFound, msg: expect.stringContaining('Not found'), data: null });
  });
});

describe('body size cap', () => {
  it('refuses a body over BODY_LIMIT_BYTES with 413 and the envelope', async () => {
    const res = await t.app.request('/healthz', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '5000' },
      body: JSON.stringify({ pad: 'x'.repeat(5000) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: ERROR_CODES.payloadTooLarge, msg: expect.stringContaining('2048 bytes') });
  });
});

describe('security headers', () => {
  it('sends nosniff, a deny-all CSP for data, frame protection and no HSTS on plain HTTP', async () => {
    const res = await t.app.request('/healthz');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('sends HSTS when the request came over TLS', async () => {
    const res = await t.app.request('https://api.example/healthz');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('trusts X-Forwarded-Proto only when TRUST_PROXY is set', async () => {
    const viaProxy = { headers: { 'x-forwarded-proto': 'https' } };
    expect((await t.app.request('/healthz', viaProxy)).headers.get('strict-transport-security')).toBeNull();
    const proxied = await createTestApp({ TRUST_PROXY: 'true' });
    expect((await proxied.app.request('/healthz', viaProxy)).headers.get('strict-transport-security')).toContain('max-age=');
    await proxied.close();
  });
});

describe('CORS', () => {
  it('allows the configured site origin', async () => {
    const res = await t.app.request('/healthz', {
      method: 'OPTIONS',
      headers: { origin: 'https://site.example', 'access-control-request-method': 'POST' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://site.example');
  });

  it('does not allow other origins', async () => {
    const res = await t.app.request('/healthz', { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
