// The browser SDK against the real app: its calls and the server's refusals work end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDreamApiClient, DreamApiError, type DreamApiClient } from '../../src/lib/sdk/index';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../test-support/tasks';

let t: TasksTestApp;
let user: TestUser;
let client: DreamApiClient;
const baseUrl = 'http://localhost:8787';

beforeAll(async () => {
  t = await createTasksTestApp({ env: { PUBLIC_URL: baseUrl } });
  user = await createUser(t, 50);
  client = createDreamApiClient({
    apiKey: user.apiKey,
    baseUrl,
    fetch: (input, init) => Promise.resolve(t.app.request(String(input), init)),
  });
});
afterAll(async () => {
  await t?.close();
});

describe('calls', () => {
  it('reads the balance, submits a task with an Idempotency-Key and reads it back', async () => {
    expect(await client.remainingCredits()).toEqual({ remainingCredits: 50 });
    const first = await client.ttsCommon(
      { text: 'Hello from the SDK', audioId: 'en-us-female-1' },
      { idempotencyKey: 'sdk-test-1' },
    );
    const again = await client.ttsCommon(
      { text: 'Hello from the SDK', audioId: 'en-us-female-1' },
      { idempotencyKey: 'sdk-test-1' },
    );
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
    const stranger = createDreamApiClient({
      apiKey: 'sk-wrong',
      baseUrl,
      fetch: (input, init) => Promise.resolve(t.app.request(String(input), init)),
    });
    await expect(stranger.remainingCredits()).rejects.toMatchObject({ code: 40001, status: 401 });
  });
});
