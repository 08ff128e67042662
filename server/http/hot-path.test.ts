// The per-request middleware over a real Node connection: CORS headers, compression and Vary, and the body cap by
// stated and unstated length.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/lib/product-rules';
import { createTestApp, type TestApp } from '../test-support/app';
import { listen, type Listening } from '../test-support/listen';
import { corsHeaders } from './cors';

const SITE = 'https://site.example';
let t: TestApp;
let server: Listening;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT_BYTES: '2048', SITE_ORIGINS: SITE });
  server = await listen(t.app.fetch);
  port = server.port;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request with exactly these headers (fetch would add Accept-Encoding); `chunks` are sent chunked, without
 * Content-Length.
 */
function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | string[],
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    if (Array.isArray(body)) for (const chunk of body) req.write(chunk);
    req.end(typeof body === 'string' ? body : undefined);
  });
}

const json = (answer: Answer) => JSON.parse(answer.body.toString('utf8')) as { code: number; msg: string };

describe('CORS', () => {
  it('answers a preflight from a site origin with the allowed methods, headers and max age', async () => {
    const res = await send('OPTIONS', '/user/info', {
      origin: SITE,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'token',
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-allow-headers']).toContain('token');
    expect(res.headers['access-control-max-age']).toBe('600');
  });

  it('lets a site origin read an answer, errors included, and its rate-limit headers', async () => {
    const res = await send('POST', '/user/info', { origin: SITE });
    expect(res.status).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    expect(res.headers['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
    expect(res.headers.vary).toContain('Origin');
  });

  it('does not let another origin read it, and says the answer varies by origin', async () => {
    const res = await send('POST', '/user/info', { origin: 'https://elsewhere.example' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers.vary).toContain('Origin');
  });
});

describe('CORS on an answer whose headers cannot change', () => {
  it('copies a Response.redirect() once and adds its headers', async () => {
    const app = new Hono();
    app.use(
      corsHeaders({
        origins: [SITE],
        allowHeaders: [],
        allowMethods: ['GET'],
        exposeHeaders: ['Retry-After'],
        maxAge: 600,
      }),
    );
    app.get('/away', () => Response.redirect('https://elsewhere.example/', 302));
    const res = await app.request('/away', { headers: { origin: SITE } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://elsewhere.example/');
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(res.headers.get('vary')).toContain('Origin');
  });
});

describe('compression', () => {
  it('gzips a JSON answer for a client that accepts gzip', async () => {
    const res = await send('GET', '/api/openapi.json', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(JSON.parse(gunzipSync(res.body).toString('utf8'))).toHaveProperty('openapi');
  });

  it('sends a small JSON answer plain, with its length, even to a client that accepts gzip', async () => {
    const res = await send('POST', '/user/info', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(401);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(res.body.length));
    expect(json(res).code).toBeGreaterThan(0);
  });

  it('sends it plain to a client that accepts no encoding, still saying it varies by Accept-Encoding', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const res = await send('GET', '/api/openapi.json', headers);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toContain('Accept-Encoding');
      expect(JSON.parse(res.body.toString('utf8'))).toHaveProperty('openapi');
    }
  });
});

describe('body cap on a real connection', () => {
  const login = { 'content-type': 'application/json' };
  const notAnEmail = JSON.stringify({ email: 'not-an-email', code: '1234', attemptId: 'a' });

  it('refuses a stated length over the cap with the envelope and the request id', async () => {
    const big = JSON.stringify({ email: 'x'.repeat(3000) });
    const res = await send(
      'POST',
      '/user/email/login',
      { ...login, 'content-length': String(Buffer.byteLength(big)) },
      big,
    );
    expect(res.status).toBe(413);
    expect(json(res).code).toBe(ERROR_CODES.payloadTooLarge);
    expect((json(res) as { requestId?: string }).requestId).toBe(res.headers['x-request-id']);
  });

  it('hands a body of stated length under the cap to the route, which reads and checks it', async () => {
    const res = await send(
      'POST',
      '/user/email/login',
      { ...login, 'content-length': String(Buffer.byteLength(notAnEmail)) },
      notAnEmail,
    );
    expect(res.status).toBe(400);
    expect(json(res).msg).toContain('email');
  });

  it('hands a chunked body under the cap to the route too', async () => {
    const res = await send('POST', '/user/email/login', login, [notAnEmail.slice(0, 10), notAnEmail.slice(10)]);
    expect(res.status).toBe(400);
    expect(json(res).msg).toContain('email');
  });

  it('refuses a chunked body once it passes the cap, with the envelope', async () => {
    const res = await send('POST', '/user/email/login', login, [
      '{"email":"',
      'x'.repeat(1500),
      'x'.repeat(1500),
      '"}',
    ]);
    expect(res.status).toBe(413);
    expect(json(res).code).toBe(ERROR_CODES.payloadTooLarge);
    // Like every failure, it names the request, as its X-Request-Id header does.
    expect((json(res) as { requestId?: string }).requestId).toBe(res.headers['x-request-id']);
  });

  it('takes a request without a body as an empty one', async () => {
    const res = await send('POST', '/user/email/login', login);
    expect(res.status).toBe(400);
    expect(json(res).code).toBe(ERROR_CODES.invalidInput);
  });
});
