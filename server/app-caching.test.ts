// Caching of answers: API answers (tokens, keys, account data) are never stored; the site and signed media keep their
// own caching.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACKING_PATHS } from '../src/lib/product-rules';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from './test-support/tasks';
import { silentWav } from './test-support/wav';

let t: TasksTestApp;
let user: TestUser;
let site: string;

beforeAll(async () => {
  site = mkdtempSync(path.join(tmpdir(), 'caching-site-'));
  mkdirSync(path.join(site, '_astro'));
  mkdirSync(path.join(site, 'payment'));
  writeFileSync(path.join(site, 'index.html'), '<!doctype html><title>home</title>');
  writeFileSync(path.join(site, 'payment', 'index.html'), '<!doctype html><title>payment</title>');
  writeFileSync(path.join(site, '404.html'), '<!doctype html><title>missing</title>');
  writeFileSync(path.join(site, '_astro', 'app.abc123.js'), 'console.log(1)');
  t = await createTasksTestApp({ env: { SITE_DIR: site } });
  user = await createUser(t, 100);
});
afterAll(async () => {
  await t.close();
  rmSync(site, { recursive: true, force: true });
});

const form = (headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: '',
});

describe('API answers', () => {
  it.each([
    ['the session token of /user/info', '/user/info', form()],
    ['a refused /user/info', '/user/info', form({ token: 'not-a-session' })],
    ['a refused /user/infoUpdate', '/user/infoUpdate', form()],
    ['/apply/playground without a session', '/apply/playground', form()],
    ['a 404 under /user/', '/user/no-such-call', { headers: { accept: 'text/html' } }],
    ['a 404 under /api/', '/api/no-such-call', form()],
    ['a 404 under /api-playground/', '/api-playground/no-such-call', form()],
    ['a 404 under /spider/', '/spider/no-such-call', form()],
    ['the tracking token', TRACKING_PATHS.accessToken, form()],
    ['the health check', '/healthz', {}],
  ])('%s is never stored', async (_name, url, init) => {
    const res = await t.app.request(url, init);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('the public feature list (the same for everyone) may be kept a minute, never longer', async () => {
    const res = await t.app.request('/api-playground/task/v1/features');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
  });

  it('holds for a signed-in user, and for the public API with its key', async () => {
    const info = await t.app.request('/user/info', form({ token: user.token }));
    expect(info.status).toBe(200);
    expect(((await info.json()) as { data: { token: string } }).data.token).toBe(user.token);
    expect(info.headers.get('cache-control')).toBe('no-store');
    const credits = await t.app.request('/api/remaining_credits', form({ authorization: `Bearer ${user.apiKey}` }));
    expect(credits.status).toBe(200);
    expect(credits.headers.get('cache-control')).toBe('no-store');
  });
});

describe('answers that choose their own caching', () => {
  it('keep it: site pages, hashed assets, signed media and the public OpenAPI document, beside API answers that are not stored', async () => {
    expect((await t.app.request('/')).headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect((await t.app.request('/payment')).headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect((await t.app.request('/_astro/app.abc123.js')).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    const saved = await t.system.media.saveUpload(user.id, silentWav(1, 8000), ['audio']);
    const media = await t.app.request(new URL(saved.url).pathname + new URL(saved.url).search);
    expect(media.status).toBe(200);
    expect(media.headers.get('cache-control')).toBe('private, max-age=3600');
    const document = await t.app.request('/api/openapi.json');
    expect(document.status).toBe(200);
    expect(document.headers.get('cache-control')).toContain('public');
    // The same app's API answers next to them, a failed one under /payment/ included.
    expect((await t.app.request('/payment/checkout', form())).headers.get('cache-control')).toBe('no-store');
    expect((await t.app.request('/user/info', form({ token: user.token }))).headers.get('cache-control')).toBe(
      'no-store',
    );
  });
});
