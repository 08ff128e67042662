// X-Request-Id: kept when sane, else made; on every answer, in every error body (both envelopes) and in the log lines
// of its request.
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, withRequestId } from '../log';
import { requestId } from './request-id';
import { createTestApp, type TestApp } from '../test-support/app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let t: TestApp | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.close();
  t = undefined;
});

describe('X-Request-Id', () => {
  it('keeps a sane incoming id, replaces one that is not, and makes one when none is sent', async () => {
    t = await createTestApp();
    const kept = await t.app.request('/healthz', { headers: { 'x-request-id': 'lb-7f3a:req/42' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a:req/42');
    for (const bad of ['has spaces in it', 'x'.repeat(129), 'quote"d', '<script>']) {
      const res = await t.app.request('/healthz', { headers: { 'x-request-id': bad } });
      expect(res.headers.get('x-request-id')).toMatch(UUID);
    }
    const made = [await t.app.request('/healthz'), await t.app.request('/healthz')].map((r) =>
      r.headers.get('x-request-id'),
    );
    expect(made[0]).toMatch(UUID);
    expect(made[1]).not.toBe(made[0]);
  });

  it('reaches an answer whose headers cannot be changed (a Response.redirect) too', async () => {
    const app = new Hono().use(requestId()).get('/away', () => Response.redirect('https://example.com/elsewhere', 302));
    const res = await app.request('/away', { headers: { 'x-request-id': 'redirected-1' } });
    expect([res.status, res.headers.get('location'), res.headers.get('x-request-id')]).toEqual([
      302,
      'https://example.com/elsewhere',
      'redirected-1',
    ]);
  });

  it('is in the body of every error answer, the product envelope and the public API one alike', async () => {
    t = await createTestApp();
    const productApi = await t.app.request('/user/info', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'support-case-1' },
      body: '{}',
    });
    expect(productApi.status).toBe(401);
    expect(await productApi.json()).toMatchObject({ code: 40001, requestId: 'support-case-1' });
    const publicApi = await t.app.request('/api/getAsyncResult', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(publicApi.status).toBeGreaterThanOrEqual(400);
    expect((await publicApi.json()) as { requestId: string }).toMatchObject({
      requestId: publicApi.headers.get('x-request-id'),
    });
    // The browser may read it (CORS).
    const cors = await t.app.request('/healthz', { headers: { origin: t.config.siteOrigins[0]! } });
    expect(cors.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
  });

  it('is in every log line written while answering its request, and in none written outside one', async () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    // No SMTP_URL: the login code is logged (a warning), as part of the request that asked for it.
    t = await createTestApp({ LOG_LEVEL: 'warn' });
    const res = await t.app.request('/user/code', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'trace-me-123' },
      body: JSON.stringify({ email: 'someone@example.com', type: 'login' }),
    });
    expect(res.status).toBe(200);
    const logged = lines
      .map((l) => JSON.parse(l) as { msg: string; requestId?: string })
      .filter((l) => l.msg.startsWith('login code'));
    expect(logged).toHaveLength(1);
    expect(logged[0]!.requestId).toBe('trace-me-123');

    lines.length = 0;
    const log = createLogger('warn');
    log.warn('outside any request');
    withRequestId('inside-one', () => log.warn('inside a request'));
    expect(lines.map((l) => JSON.parse(l) as { requestId?: string }).map((l) => l.requestId)).toEqual([
      undefined,
      'inside-one',
    ]);
  });
});
