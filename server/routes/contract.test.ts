// Contract over every route the app registers: a malformed body gets a 4xx and the §8 envelope, never a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Concrete paths for every registered route that takes a body (params filled, middleware-only paths skipped). */
function bodyRoutes(app: TestApp['app']): Array<{ method: string; path: string }> {
  const seen = new Set<string>();
  const routes: Array<{ method: string; path: string }> = [];
  for (const route of app.routes) {
    if (!['POST', 'PUT', 'PATCH'].includes(route.method) || route.path.includes('*')) continue;
    const path = route.path.replace(/:[^/]+/g, 'x');
    const key = `${route.method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    routes.push({ method: route.method, path });
  }
  return routes;
}

const malformedBodies = [
  { name: 'truncated JSON', type: 'application/json', body: '{"email": "a@b.co", ' },
  { name: 'a JSON array', type: 'application/json', body: '[1, 2, 3]' },
  { name: 'JSON null', type: 'application/json', body: 'null' },
  { name: 'an unsupported content type', type: 'application/xml', body: '<user><email>a@b.co</email></user>' },
  { name: 'binary noise', type: 'application/octet-stream', body: '\u0000\u0001\u0002\u00ff' },
];

describe('every route refuses malformed bodies with a 4xx envelope', () => {
  it('has routes to check (the list grows as areas are added)', () => {
    expect(t.app.routes.length).toBeGreaterThan(0);
  });

  for (const bad of malformedBodies) {
    it(`refuses ${bad.name} on every body route`, async () => {
      for (const route of bodyRoutes(t.app)) {
        const res = await t.app.request(route.path, {
          method: route.method,
          headers: { 'content-type': bad.type },
          body: bad.body,
        });
        const where = `${route.method} ${route.path} with ${bad.name}`;
        expect(res.status, where).toBeGreaterThanOrEqual(400);
        expect(res.status, where).toBeLessThan(500);
        const envelope = await res.json();
        expect(envelope.code, where).not.toBe(0);
        expect(typeof envelope.msg, where).toBe('string');
        expect(envelope.msg.length, where).toBeGreaterThan(0);
      }
    });
  }
});
