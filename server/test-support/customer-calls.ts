// The calls a customer makes, as tests make them: a playground upload and call with a session, a public API submit and
// result with a key.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { TasksTestApp, TestUser } from './tasks';

/** Uploads a file through the playground, as a user would; answers our own (private) media URL for it. */
export async function uploadMedia(t: TasksTestApp, user: TestUser, file: string): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([readFileSync(file)]), path.basename(file));
  const res = await t.app.request('/api-playground/file/v1/upload', {
    method: 'POST',
    headers: { token: user.token },
    body: form,
  });
  return ((await res.json()) as { data: { url: string } }).data.url;
}

/** A public API call (/api/async/<tool>) as a customer makes it; answers the new task's id. */
export async function submitTool(t: TasksTestApp, apiKey: string, tool: string, body: unknown): Promise<string> {
  const res = await t.app.request(`/api/async/${tool}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { message: string; data: { taskId: string } };
  expect(res.status, answer.message).toBe(200);
  return answer.data.taskId;
}

/** A playground call (/api-playground/<route>) with the user's session, JSON in. */
export async function postPlayground(t: TasksTestApp, user: TestUser, route: string, body: unknown): Promise<Response> {
  return t.app.request(`/api-playground/${route}`, {
    method: 'POST',
    headers: { token: user.token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The `data` of the public getAsyncResult for a task. */
export async function asyncResult<T>(t: TasksTestApp, apiKey: string, taskId: string): Promise<T> {
  const res = await t.app.request('/api/getAsyncResult', {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ taskId }),
  });
  return ((await res.json()) as { data: T }).data;
}
