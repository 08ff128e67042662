// The OpenAPI document against the running app: every /api/* route documented and every documented route real,
// documented request schemas enforced by validation, and real answers matching the documented answer schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { PUBLIC_TOOLS, type PublicTool, PUBLIC_API_CODES } from '../../src/lib/product-rules';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../test-support/tasks';
import {
  buildOpenApiDocument,
  ERROR_CATALOGUE,
  errorEnvelope,
  OPERATIONS,
  PUBLIC_TOOL_BODIES,
  remainingCreditsData,
  requestSchema,
  submitData,
  taskResult,
  uploadPolicyData,
  webhookSecretData,
  type JsonSchema,
  type OpenApiDocument,
} from '../../src/lib/api-contract';

let t: TasksTestApp;
let user: TestUser;
let doc: OpenApiDocument;

beforeAll(async () => {
  t = await createTasksTestApp({ env: { RATE_LIMIT_PER_MINUTE: '10000' } });
  user = await createUser(t, 10_000);
  const res = await t.app.request('/api/openapi.json');
  expect(res.status).toBe(200);
  doc = (await res.json()) as OpenApiDocument;
});
afterAll(async () => {
  await t?.close();
});

async function call(path: string, body: unknown, as: TestUser = user) {
  const res = await t.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${as.apiKey}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data: unknown } };
}

function ok<S extends z.ZodType>(schema: S, body: { code: number; data: unknown }) {
  expect(body.code, JSON.stringify(body)).toBe(0);
  const parsed = schema.safeParse(body.data);
  expect(parsed.success, parsed.error?.message).toBe(true);
}

describe('routes and the document', () => {
  it('documents exactly the /api/* routes the app registers (no route undocumented, none documented without existing)', () => {
    const registered = new Set(
      t.app.routes.filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL').map((r) => `${r.method} ${r.path}`),
    );
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`)),
    );
    expect(registered.size).toBeGreaterThan(15);
    expect(
      [...registered].filter((r) => !documented.has(r)),
      'registered but not documented',
    ).toEqual([]);
    expect(
      [...documented].filter((d) => !registered.has(d)),
      'documented but not registered',
    ).toEqual([]);
  });

  it('is OpenAPI 3.1 with unique operation ids, the server URL and every error code in the catalogue', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0]!.url).toBe(t.config.publicUrl);
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    const known = new Set<number>(Object.values(ERROR_CATALOGUE).map((e) => e.code));
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        for (const [status, r] of Object.entries(op.responses)) {
          if (status !== '200') for (const code of r['x-error-codes'] ?? []) expect(known.has(code)).toBe(true);
        }
      }
    }
    expect(doc.webhooks.taskFinished).toBeDefined();
    expect(doc.components.schemas.WebhookEvent).toBeDefined();
  });

  it('describes each tool with the body schema the route validates with', () => {
    for (const tool of Object.keys(PUBLIC_TOOLS) as PublicTool[]) {
      const documented = doc.paths[`/api/async/${tool}`]!.post!.requestBody!.content['application/json']!.schema;
      const stripped = (s: JsonSchema) =>
        JSON.parse(JSON.stringify(s, (k, v: unknown) => (k === 'description' ? undefined : v))) as unknown;
      expect(stripped(documented)).toEqual(stripped(requestSchema(PUBLIC_TOOL_BODIES[tool])));
    }
  });

  it('names only fields that exist in the schema it describes', () => {
    for (const op of OPERATIONS) {
      const properties = op.request ? Object.keys((requestSchema(op.request.schema).properties ?? {}) as object) : [];
      for (const field of Object.keys(op.request?.fields ?? {}))
        expect(properties, `${op.id}.${field}`).toContain(field);
    }
  });
});

describe('validation follows the documented request schemas', () => {
  const withJsonBody = OPERATIONS.filter((op) => op.request?.contentType === 'application/json');

  it.each(withJsonBody.map((op) => [op.id, op] as const))(
    '%s: the documented example passes validation',
    async (_id, op) => {
      expect(op.request!.schema.safeParse(op.request!.example).success).toBe(true);
      const res = await call(op.path, op.request!.example);
      expect(res.body.code, res.body.message).not.toBe(PUBLIC_API_CODES.illegalParameter);
      if (res.body.code !== 0) expect(errorEnvelope.safeParse(res.body).success).toBe(true);
    },
  );

  it.each(withJsonBody.map((op) => [op.id, op] as const))(
    '%s: leaving out a documented required field is refused, naming it',
    async (_id, op) => {
      const required = (requestSchema(op.request!.schema).required ?? []) as string[];
      for (const field of required) {
        const { [field]: _dropped, ...rest } = op.request!.example;
        const res = await call(op.path, rest);
        expect(res.status, `${op.id} without ${field}`).toBe(400);
        expect(res.body.code).toBe(PUBLIC_API_CODES.illegalParameter);
        expect(res.body.message).toContain(field);
      }
    },
  );

  it.each(withJsonBody.map((op) => [op.id, op] as const))(
    '%s: a value outside a documented enum is refused',
    async (_id, op) => {
      const properties = (requestSchema(op.request!.schema).properties ?? {}) as Record<string, JsonSchema>;
      for (const [field, schema] of Object.entries(properties)) {
        if (!Array.isArray(schema.enum)) continue;
        const res = await call(op.path, { ...op.request!.example, [field]: 'not-an-allowed-value' });
        expect(res.status, `${op.id}.${field}`).toBe(400);
        expect(res.body.message).toContain(field);
      }
    },
  );
});

describe('answers match the documented answer schemas', () => {
  it('submit, result, cancel, credits, webhook secret and upload policy', async () => {
    // A user of its own: the example submits above filled the first user's concurrent-task allowance.
    const fresh = await createUser(t, 100);
    const submitted = await call(
      '/api/async/do_tts_common',
      { text: 'Checking the documented answers', audioId: 'en-us-male-1' },
      fresh,
    );
    ok(submitData, submitted.body);
    const taskId = (submitted.body.data as { taskId: string }).taskId;
    ok(taskResult, (await call('/api/getAsyncResult', { taskId }, fresh)).body);
    const canceled = await call('/api/cancelAsyncTask', { taskId }, fresh);
    // The engine may finish first; either answer is documented.
    if (canceled.body.code === 0) ok(taskResult, canceled.body);
    else expect(canceled.body.code).toBe(ERROR_CATALOGUE.conflict.code);
    ok(remainingCreditsData, (await call('/api/remaining_credits', {})).body);
    ok(webhookSecretData, (await call('/api/webhook_secret', {})).body);
    ok(uploadPolicyData, (await call('/api/file/v1/get_policy', { scene: 'audio' })).body);
  });

  it('a refusal is the documented error envelope with a catalogue code and HTTP status', async () => {
    const res = await call('/api/getAsyncResult', { taskId: 'no-such-task' });
    expect(errorEnvelope.safeParse(res.body).success).toBe(true);
    expect(res.status).toBe(ERROR_CATALOGUE.notFound.http);
    expect(res.body.code).toBe(ERROR_CATALOGUE.notFound.code);
    const anonymous = await t.app.request('/api/remaining_credits', { method: 'POST' });
    expect(anonymous.status).toBe(ERROR_CATALOGUE.notLoggedIn.http);
  });

  it('serves the same document the site builds, apart from the server URL', () => {
    expect({ ...doc, servers: [] }).toEqual({ ...buildOpenApiDocument(), servers: [] });
  });
});
