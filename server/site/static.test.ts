// Static site serving: clean URLs, per-page CSP from Astro's hashes, caching, the 404 page and no path escapes.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/app';

const pageCsp = "script-src 'self' 'sha256-abc='; style-src 'self' 'sha256-def=';";
let t: TestApp;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'site-'));
  mkdirSync(path.join(root, 'pricing'));
  mkdirSync(path.join(root, '_astro'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>home</title>');
  writeFileSync(
    path.join(root, 'pricing', 'index.html'),
    `<!doctype html><head><meta http-equiv="content-security-policy" content="${pageCsp}"></head><title>pricing</title>`,
  );
  writeFileSync(path.join(root, '404.html'), '<!doctype html><title>missing</title>');
  writeFileSync(path.join(root, '_astro', 'app.abc123.js'), 'console.log(1)');
  writeFileSync(
    path.join(root, '_astro', 'big.abc123.js'),
    'console.log("a fairly long line of script");\n'.repeat(200),
  );
  writeFileSync(path.join(os.tmpdir(), 'secret-outside-site.txt'), 'secret');
  t = await createTestApp({ SITE_DIR: root });
});
afterAll(() => t.close());

describe('static site', () => {
  it('serves /pricing from pricing/index.html', async () => {
    const res = await t.app.request('/pricing');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('<title>pricing</title>');
  });

  it("repeats the page's script and style hashes in the CSP header and adds frame-ancestors", async () => {
    const csp = (await t.app.request('/pricing')).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' 'sha256-abc='");
    expect(csp).toContain("style-src 'self' 'sha256-def='");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });

  it('caches hashed assets for a year and pages not at all', async () => {
    expect((await t.app.request('/_astro/app.abc123.js')).headers.get('cache-control')).toContain('immutable');
    expect((await t.app.request('/pricing')).headers.get('cache-control')).toContain('max-age=0');
  });

  it('gzips text assets for clients that accept it', async () => {
    const res = await t.app.request('/_astro/big.abc123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const raw = new Uint8Array(await res.arrayBuffer());
    expect(raw.length).toBeLessThan(1000);
  });

  it('answers a matching If-None-Match with 304', async () => {
    const first = await t.app.request('/pricing');
    const etag = first.headers.get('etag') ?? '';
    const second = await t.app.request('/pricing', { headers: { 'if-none-match': etag } });
    expect(second.status).toBe(304);
  });

  it('serves the 404 page (which redirects to /) for unknown pages a browser asks for', async () => {
    const res = await t.app.request('/foo/bar', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('<title>missing</title>');
  });

  it.each([
    '/../secret-outside-site.txt',
    '/%2e%2e/secret-outside-site.txt',
    '/..%2fsecret-outside-site.txt',
    '/%00',
    '/%E0%A4%A',
  ])('never serves a file outside the site folder: %s', async (url) => {
    const res = await t.app.request(url);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('secret');
  });
});
