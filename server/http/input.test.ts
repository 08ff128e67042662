// Body reading and validation: form and JSON accepted, bad bodies answered with "field: rule" messages.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../log';
import { errorResponder } from './errors';
import { validBody } from './input';

const schema = z.object({ email: z.email('Invalid email address'), count: z.coerce.number().int().min(1) });

function echoApp() {
  const app = new Hono();
  app.onError(errorResponder(createLogger('silent')));
  app.post('/echo', async (c) => c.json({ code: 0, msg: 'ok', data: await validBody(c, schema) }));
  return app;
}

async function post(body: BodyInit, type?: string) {
  const headers: Record<string, string> = type ? { 'content-type': type } : {};
  const res = await echoApp().request('/echo', { method: 'POST', body, headers });
  return { status: res.status, json: await res.json() };
}

describe('validBody', () => {
  it('reads a form-encoded body (the SPEC.md §7 default)', async () => {
    const { status, json } = await post('email=a%40b.co&count=2', 'application/x-www-form-urlencoded');
    expect(status).toBe(200);
    expect(json.data).toEqual({ email: 'a@b.co', count: 2 });
  });

  it('reads a JSON body', async () => {
    const { json } = await post(JSON.stringify({ email: 'a@b.co', count: 3 }), 'application/json; charset=utf-8');
    expect(json.data).toEqual({ email: 'a@b.co', count: 3 });
  });

  it('reads multipart form data', async () => {
    const form = new FormData();
    form.set('email', 'a@b.co');
    form.set('count', '4');
    const { json } = await post(form);
    expect(json.data).toEqual({ email: 'a@b.co', count: 4 });
  });

  it.each([
    ['an invalid field', 'email=nope&count=1', 'application/x-www-form-urlencoded', 'email: Invalid email address'],
    ['a missing field', 'email=a%40b.co', 'application/x-www-form-urlencoded', 'count:'],
    ['an empty body', '', 'application/json', 'email:'],
    ['truncated JSON', '{"email":', 'application/json', 'not valid JSON'],
    ['a JSON array', '[]', 'application/json', 'must be a JSON object'],
    ['an unsupported type', '<a/>', 'text/xml', 'Send the body as'],
  ])('answers %s with a 4xx naming the problem', async (_name, body, type, message) => {
    const { status, json } = await post(body, type);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(json.code).not.toBe(0);
    expect(json.msg).toContain(message);
  });
});
