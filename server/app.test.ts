// The app's shared behaviour: health, the §8 envelope for every failure, body caps, CORS and security headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/lib/api-contract';
import { ENGINE_NAMES, ERROR_CODES, ERROR_MESSAGES, TRACKING_PATHS } from '../src/lib/product-rules';
import { createTestApp, type TestApp } from './test-support/app';
import { createUser, type TestUser } from './test-support/tasks';

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

  it('stays 200 (alive) when the database is gone, saying so; /readyz answers 503 naming it', async () => {
    const broken = await createTestApp();
    await broken.database.close();
    const res = await broken.app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ code: 0, data: { status: 'degraded', database: { up: false } } });
    const ready = await broken.app.request('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      code: ERROR_CODES.unavailable,
      msg: expect.stringContaining('database'),
      data: { status: 'not ready', checks: { database: { up: false } } },
    });
  });
});

describe('unknown routes', () => {
  it('get a 404 envelope for API clients', async () => {
    const res = await t.app.request('/no/such/route', { method: 'POST' });
    expect(res.status).toBe(404);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toEqual({
      code: ERROR_CODES.notFound,
      msg: expect.stringContaining('Not found'),
      data: null,
      requestId,
    });
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
    expect(await res.json()).toMatchObject({
      code: ERROR_CODES.payloadTooLarge,
      msg: expect.stringContaining('2048 bytes'),
    });
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
    expect((await proxied.app.request('/healthz', viaProxy)).headers.get('strict-transport-security')).toContain(
      'max-age=',
    );
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

describe('every documented route answers at its path', () => {
  /** The product API of SPEC.md §7 and the site's other calls; /user/exit/login is last because it ends the session. */
  const PRODUCT_ROUTES = [
    'GET /healthz',
    'POST /user/code',
    'POST /user/email/login',
    'POST /user/info',
    'POST /user/infoUpdate',
    'POST /user/invitation',
    'POST /user/credits/history',
    'POST /user/google/login/url',
    'POST /user/github/login/url',
    'GET /user/google/login/callback',
    'POST /user/google/login/callback',
    'GET /user/github/login/callback',
    'POST /user/github/login/callback',
    'POST /apply/playground',
    'POST /apply/playground/regenerate',
    'POST /api-playground/speech/v1/tts',
    'POST /api-playground/speech/v1/voice_clone',
    'POST /api-playground/speech/v1/tts_clone',
    'POST /api-playground/speech/v1/dialogue',
    'GET /api-playground/speech/v1/voice_list',
    'POST /api-playground/video_tools/v1/animate_video',
    'POST /api-playground/video_tools/v1/poll',
    'POST /api-playground/video_tools/v1/cancel',
    'POST /api-playground/video_tools/v1/delete',
    'POST /api-playground/video_tools/v1/get_list',
    'GET /api-playground/video_tools/v1/stream',
    'POST /api-playground/did_video_task/v1/translate_lip_submit',
    'POST /api-playground/did_video_task/v1/translate_submit',
    'POST /api-playground/talking_face/v1/create_task',
    'POST /api-playground/clothes_changer/v1/create_task',
    'GET /api-playground/task/v1/features',
    'GET /api-playground/vih_model/v1/model_list',
    'POST /api-playground/file/v1/upload',
    'POST /api-playground/account/v1/webhook_secret',
    'GET /voice-preview/no-such-voice',
    ...Object.values(TRACKING_PATHS).map((path) => `POST ${path}`),
    'GET /payment/packs',
    'POST /payment/checkout',
    'POST /payment/webhook',
    'POST /contact/message',
    `POST /engine-hooks/${ENGINE_NAMES[0]}/task0001`,
    'GET /media/abc123.mp3',
    'GET /api/openapi.json',
    'POST /user/exit/login',
  ];
  /**
   * Unknown paths under each area: with the same credentials they must get the app's 404, or the check above proves
   * nothing.
   */
  const UNKNOWN_ROUTES = [
    '/healthz/x',
    '/user/x',
    '/apply/x',
    '/api-playground/x',
    '/voice-preview/a/b',
    '/api/x',
    '/spider/api/v1/x',
    '/payment/x',
    '/contact/x',
    '/engine-hooks/x',
    '/media/a/b',
  ];
  const routeMissing = JSON.stringify({ code: ERROR_CODES.notFound, msg: ERROR_MESSAGES.notFound, data: null });
  /** The public API keeps its own envelope for a path it does not have (docs/public-api.md): message and msg both. */
  const apiRouteMissing = JSON.stringify({
    code: ERROR_CODES.notFound,
    message: ERROR_MESSAGES.notFound,
    msg: ERROR_MESSAGES.notFound,
    data: null,
  });
  const missingAt = (path: string) => (path.startsWith('/api/') ? apiRouteMissing : routeMissing);

  let app: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT_PER_MINUTE: '10000' });
    user = await createUser(app, 0);
  });
  afterAll(() => app.close());

  /**
   * A session token and an API key, so no area's sign-in check answers before routing; bodies are empty JSON objects.
   */
  async function call(method: string, path: string) {
    const res = await app.app.request(path, {
      method,
      headers: {
        token: user.token,
        authorization: `Bearer ${user.apiKey}`,
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
      ...(method === 'POST' ? { body: '{}' } : {}),
    });
    // A live status stream never ends by itself: its answer is the open stream, read no further.
    if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
      await res.body?.cancel();
      return { status: res.status, body: '' };
    }
    // Every failure names its request (a fresh id each time): compared without it.
    return { status: res.status, body: (await res.text()).replace(/,"requestId":"[^"]*"/, '') };
  }

  it('the public API operations of the contract and the product API routes are all answered by their routes', async () => {
    const routes = [...OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`), ...PRODUCT_ROUTES];
    expect(OPERATIONS.length).toBeGreaterThan(15);
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string];
      const res = await call(method, path);
      expect(
        res.status === 404 && res.body === missingAt(path),
        `${route} is not routed: ${res.status} ${res.body}`,
      ).toBe(false);
      // Neither a gate of its area (key, session, rate limit) nor a crash answered in the route's place.
      expect([401, 429], `${route}: ${res.status} ${res.body}`).not.toContain(res.status);
      expect(res.status, `${route}: ${res.body}`).toBeLessThan(500);
    }
  });

  it('an unknown path under each area gets the 404 envelope, with the same credentials', async () => {
    for (const path of UNKNOWN_ROUTES) {
      for (const method of ['GET', 'POST']) {
        const res = await call(method, path);
        expect({ route: `${method} ${path}`, status: res.status, body: res.body }).toEqual({
          route: `${method} ${path}`,
          status: 404,
          body: missingAt(path),
        });
      }
    }
  });
});
