// Public API with private targets refused (the default): callbackUrl, input URLs and webhook deliveries never reach
// this machine.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOUND_MESSAGES } from '../../src/lib/product-rules';
import { createLogger } from '../log';
import { webhookDispatcher } from '../tasks/webhooks';
import { createTasksTestApp, createUser, creditState, type TasksTestApp, type TestUser } from '../test-support/tasks';
import { silentWav } from '../test-support/wav';

let t: TasksTestApp;
let base: string;
let server: ReturnType<typeof serve>;
let user: TestUser;
/** A listener on 127.0.0.1 that must never be reached; it would serve a valid file if it were. */
let trap: Server;
let trapPort: number;
const trapHits: string[] = [];

beforeAll(async () => {
  trap = createServer((req, res) => {
    trapHits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'audio/wav' }).end(silentWav(1, 8000));
  });
  await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
  trapPort = (trap.address() as AddressInfo).port;
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  base = `http://127.0.0.1:${port}`;
  // The test support allows private targets for its local fakes; these tests run with the production default.
  t = await createTasksTestApp({
    env: { PUBLIC_URL: base, OUTBOUND_ALLOW_PRIVATE: 'false', RATE_LIMIT_PER_MINUTE: '1000' },
  });
  server = serve({ fetch: t.app.fetch, port, hostname: '127.0.0.1' });
  await t.system.start();
  user = await createUser(t, 1000);
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await t.close();
  await new Promise((r) => trap.close(r));
});

async function api(path: string, body: unknown) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.apiKey}` },
    body: JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data: any } };
}

async function poll(taskId: string) {
  for (let i = 0; i < 400; i++) {
    const r = await api('/api/getAsyncResult', { taskId });
    if (r.body.data.task.status >= 3) return r.body.data;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('task did not finish');
}

describe('private targets refused by default', () => {
  it('answers 400 to a callbackUrl on this machine in any spelling', async () => {
    for (const url of [
      `http://[::ffff:127.0.0.1]:${trapPort}/`,
      `http://[::ffff:7f00:1]:${trapPort}/`,
      `http://${hostname()}:${trapPort}/`,
      `http://localhost:${trapPort}/`,
      `http://2130706433:${trapPort}/`,
    ]) {
      const r = await api('/api/async/do_tts_common', { text: 'hi', callbackUrl: url });
      expect({ url, status: r.status, code: r.body.code, message: r.body.message }).toEqual({
        url,
        status: 400,
        code: 10192,
        message: `Illegal parameter: callbackUrl: ${OUTBOUND_MESSAGES.privateHost}`,
      });
    }
    expect(trapHits).toEqual([]);
  });

  it('fails a task whose input URL points at this machine with an input error, refunded, the listener untouched', async () => {
    const before = (await creditState(t, user.id)).balance;
    const submitted = await api('/api/async/img2video', {
      prompt: 'a wave',
      imgUrl: `http://[::ffff:127.0.0.1]:${trapPort}/photo.png`,
    });
    expect(submitted.status).toBe(200);
    const data = await poll(submitted.body.data.taskId);
    expect(data.task.status).toBe(4);
    expect(data.task.reason).toContain(
      `input URL http://[::ffff:127.0.0.1]:${trapPort}/photo.png ${OUTBOUND_MESSAGES.privateHost}`,
    );
    expect(trapHits).toEqual([]);
    const after = await creditState(t, user.id);
    expect(after.balance).toBe(before);
    expect(after.ledgerSum).toBe(after.balance);
  });

  it('checks each webhook delivery again: a stored callbackUrl whose name now resolves to 127.0.0.1 is not sent', async () => {
    // The app's own dispatcher is stopped so the one below, with its resolver, handles these rows.
    await t.system.webhooks.stop();
    const now = Date.now();
    const rows = [
      { id: 'msg_rebound', url: `http://hooks.example:${trapPort}/hook` },
      { id: 'msg_mapped', url: `http://[::ffff:127.0.0.1]:${trapPort}/hook` },
    ];
    for (const row of rows) {
      await t.database.db
        .insertInto('webhook_deliveries')
        .values({
          ...row,
          task_id: 'task_x',
          user_id: user.id,
          payload: '{}',
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    // The name accepted at submit now resolves to this machine.
    const dispatcher = webhookDispatcher({
      db: t.database.db,
      log: createLogger('silent'),
      retryBaseMs: 60_000,
      maxAttempts: 3,
      outbound: { allowPrivate: false, resolve: async () => [{ address: '127.0.0.1', family: 4 }] },
    });
    expect(await dispatcher.runDue()).toBe(2);
    const stored = await t.database.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'attempts', 'last_error', 'status'])
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('id')
      .execute();
    expect(stored).toEqual([
      { id: 'msg_mapped', attempts: 1, last_error: OUTBOUND_MESSAGES.privateHost, status: 'pending' },
      { id: 'msg_rebound', attempts: 1, last_error: OUTBOUND_MESSAGES.privateHost, status: 'pending' },
    ]);
    expect(trapHits).toEqual([]);
  });
});
