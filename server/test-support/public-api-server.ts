// Test-only: the tasks app served over real HTTP at the PUBLIC_URL it signs links with, and a keyed client for it.
import { serve } from '@hono/node-server';
import { freePort } from './free-port';
import { postJson } from './post-json';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from './tasks';

/** The public API's answer envelope (it says `message` where the site's routes say `msg`). */
export interface ApiEnvelope {
  code: number;
  message: string;
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface PublicApiServer {
  t: TasksTestApp;
  base: string;
  user: TestUser;
  /** POSTs JSON (a string body as it is) with the user's API key. */
  api(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; body: ApiEnvelope }>;
  /** Polls getAsyncResult until the task has ended, and answers its data. */
  poll(taskId: string): Promise<ApiEnvelope['data']>;
  close(): Promise<void>;
}

/** Picks a free port first, so the app is built with that PUBLIC_URL and its signed URLs point at it. */
export async function servePublicApi(env: Record<string, string>, credits: number): Promise<PublicApiServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTasksTestApp({ env: { PUBLIC_URL: base, RATE_LIMIT_PER_MINUTE: '1000', ...env } });
  const server = serve({ fetch: t.app.fetch, port, hostname: '127.0.0.1' });
  await t.system.start();
  const user = await createUser(t, credits);
  const remote = { request: (path: string, init: RequestInit) => fetch(`${base}${path}`, init) };
  const api: PublicApiServer['api'] = (path, body, headers = {}) =>
    postJson<ApiEnvelope>(remote, path, body, { authorization: `Bearer ${user.apiKey}`, ...headers });
  async function poll(taskId: string) {
    for (let i = 0; i < 400; i++) {
      const r = await api('/api/getAsyncResult', { taskId });
      if (r.body.data.task.status >= 3) return r.body.data;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error('task did not finish');
  }
  async function close() {
    await new Promise((r) => server.close(r));
    await t.close();
  }
  return { t, base, user, api, poll, close };
}
