// Public API with private targets refused (the default): callbackUrl, input URLs and webhook deliveries never reach
// this machine.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOUND_MESSAGES } from '../../src/lib/product-rules';
import { createLogger } from '../log';
import { webhookDispatcher } from '../tasks/webhooks';
import { servePublicApi, type PublicApiServer } from '../test-support/public-api-server';
import { creditState, type TasksTestApp, type TestUser } from '../test-support/tasks';
import { silentWav } from '../test-support/wav';

let served: PublicApiServer;
let t: TasksTestApp;
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
  // The test support allows private targets for its local fakes; these tests run with the production default.
  served = await servePublicApi({ OUTBOUND_ALLOW_PRIVATE: 'false' }, 1000);
  ({ t, user } = served);
});
afterAll(async () => {
  await served.close();
  await new Promise((r) => trap.close(r));
});

const api = (path: string, body: unknown) => served.api(path, body);
const poll = (taskId: string) => served.poll(taskId);

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
