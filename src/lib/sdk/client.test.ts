// The SDK against the real app: its operations are the document's, and its calls and errors work end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../server/openapi';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../../../server/test-support/tasks';
import { createDreamApiClient, DreamApiError, OPERATIONS, type DreamApiClient } from './client';

let t: TasksTestApp;
let user: TestUser;
let client: DreamApiClient;
const baseUrl = 'http://localhost:8787';

beforeAll(async () => {
  t = await createTasksTestApp({ env: { PUBLIC_URL: baseUrl } });
  user = await createUser(t, 50);
  client = createDreamApiClient({ apiKey: user.apiKey, baseUrl, fetch: (input, init) => Promise.resolve(t.app.request(String(input), init)) });
});
afterAll(async () => {
  await t?.close();
});

describe('the SDK and the OpenAPI document', () => {
  it('has one entry per documented operation, with the same method and path', () => {
    const documented = Object.fromEntries(
      Object.entries(buildOpenApiDocument().paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [op.operationId, { method, path }])),
    );
    expect(OPERATIONS).toEqual(documented);
  });

  it('has a method for every operation', () => {
    for (const id of Object.keys(OPERATIONS)) expect(typeof (client as Record<string, unknown>)[id], id).toBe('function');
  });
});

describe('calls', () => {
  it('reads the balance, submits a task with an Idempotency-Key and reads it back', async () => {
    expect(await client.remainingCredits()).toEqual({ remainingCredits: 50 });
    const first = await client.ttsCommon({ text: 'Hello from the SDK', audioId: 'en-us-female-1' }, { idempotencyKey: 'sdk-test-1' });
    const again = await client.ttsCommon({ text: 'Hello from the SDK', audioId: 'en-us-female-1' }, { idempotencyKey: 'sdk-test-1' });
    expect(again.taskId).toBe(first.taskId);
    const result = await client.getAsyncResult({ taskId: first.taskId });
    expect(result.task).toMatchObject({ taskId: first.taskId, taskType: 'do_tts_common' });
    expect((await client.remainingCredits()).remainingCredits).toBe(50 - first.credits);
  });

  it('gets the webhook secret and an upload policy', async () => {
    expect((await client.webhookSecret()).secret).toMatch(/^whsec_/);
    const policy = await client.getUploadPolicy({ scene: 'audio' });
    expect(policy.host).toBe(`${baseUrl}/api/file/v1/upload`);
    expect(policy.accept).toEqual(['audio']);
  });

  it('fetches the OpenAPI document', async () => {
    expect((await client.openApiDocument()).openapi).toBe('3.1.0');
  });
});

describe('errors', () => {
  it('throws DreamApiError with the envelope code, HTTP status and the server message', async () => {
    const error = await client.getAsyncResult({ taskId: 'nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DreamApiError);
    expect(error).toMatchObject({ code: 40004, status: 404 });
    const invalid = await client.ttsCommon({ text: '' }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ code: 10192, status: 400 });
    expect((invalid as Error).message).toContain('text');
  });

  it('refuses a wrong key with 40001', async () => {
    const stranger = createDreamApiClient({ apiKey: 'sk-wrong', baseUrl, fetch: (input, init) => Promise.resolve(t.app.request(String(input), init)) });
    await expect(stranger.remainingCredits()).rejects.toMatchObject({ code: 40001, status: 401 });
  });

  it('says when the request did not reach the API, and refuses bad options', async () => {
    const offline = createDreamApiClient({ apiKey: 'k', baseUrl, fetch: () => Promise.reject(new Error('connect ECONNREFUSED')) });
    await expect(offline.remainingCredits()).rejects.toMatchObject({ code: null, status: 0, message: expect.stringContaining('ECONNREFUSED') as string });
    expect(() => createDreamApiClient({ apiKey: '', baseUrl })).toThrow('apiKey');
    expect(() => createDreamApiClient({ apiKey: 'k', baseUrl: 'not a url' })).toThrow('baseUrl');
  });
});
