// The webhook delivery log against a local HTTP receiver: every attempt with status, latency, bounded answer and next
// retry; failed-only filter; redelivery with the same id and a fresh signature; removed with the task.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../test-support/tasks';
import { signWebhook } from './webhooks';
import { ERROR_CODES, WEBHOOK_LOG } from '../../src/lib/product-rules';
import type { WebhookAttemptView } from '../../src/lib/api-contract';

let t: TasksTestApp;
let user: TestUser;
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
/** What the receiver answers next: status, body and a delay before it answers. */
const script: Array<{ status: number; body: string; delayMs?: number }> = [];
const receiver = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
  const next = script.shift() ?? { status: 200, body: 'ok' };
  if (next.delayMs) await new Promise((r) => setTimeout(r, next.delayMs));
  res.writeHead(next.status, { 'content-type': 'text/plain' }).end(next.body);
});
let hookUrl: string;

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  t = await createTasksTestApp({ env: { WEBHOOK_RETRY_BASE_MS: '100', RATE_LIMIT_PER_MINUTE: '10000' } });
  await t.system.start();
  user = await createUser(t, 100);
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => receiver.close(r));
});

async function api(path: string, body: unknown, as: TestUser = user) {
  const res = await t.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${as.apiKey}` },
    body: JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data: any } };
}
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('gave up waiting');
}
const deliveries = async (body: Record<string, unknown> = {}) =>
  (await api('/api/webhooks/deliveries', body)).body.data as { list: WebhookAttemptView[]; nextBefore: number | null };
const verifies = (secret: string, h: IncomingHttpHeaders, body: string) =>
  String(h['webhook-signature']) === signWebhook(secret, String(h['webhook-id']), Number(h['webhook-timestamp']), body);

describe('webhook delivery log', () => {
  let taskId: string;

  it('records each attempt: status, latency, the first bytes of the answer and the next retry', async () => {
    script.push({ status: 500, body: 'x'.repeat(2000), delayMs: 60 }, { status: 200, body: '{"received":true}' });
    const submitted = await api('/api/async/do_tts_common', { text: 'Log my webhook', callbackUrl: hookUrl });
    taskId = submitted.body.data.taskId as string;
    const log = await until(
      () => deliveries({ taskId }),
      (d) => d.list.length === 2,
    );
    const [second, first] = log.list;
    expect(first).toMatchObject({
      taskId,
      url: hookUrl,
      attempt: 1,
      trigger: 'retry',
      statusCode: 500,
      ok: false,
      error: 'HTTP 500',
      eventType: 'task.succeeded',
    });
    expect(first!.responseHead).toBe('x'.repeat(WEBHOOK_LOG.responseHeadBytes));
    expect(first!.latencyMs).toBeGreaterThanOrEqual(60);
    expect(first!.nextRetryAt).toBeGreaterThan(first!.createdAt);
    expect(second).toMatchObject({
      attempt: 2,
      statusCode: 200,
      ok: true,
      error: null,
      responseHead: '{"received":true}',
      nextRetryAt: null,
      deliveryStatus: 'delivered',
    });
    expect(second!.deliveryId).toBe(first!.deliveryId);
    expect(received.at(-1)!.headers['webhook-id']).toBe(first!.deliveryId);
  });

  it('filters failed attempts and pages by keyset', async () => {
    const failed = await deliveries({ taskId, failedOnly: true });
    expect(failed.list.map((a) => a.attempt)).toEqual([1]);
    const page1 = await deliveries({ limit: 1 });
    expect(page1.list).toHaveLength(1);
    expect(page1.nextBefore).toBe(page1.list[0]!.id);
    const page2 = await deliveries({ limit: 1, before: page1.nextBefore });
    expect(page2.list[0]!.id).toBeLessThan(page1.list[0]!.id);
  });

  it('records an attempt that got no answer', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/gone`;
    await new Promise((r) => closed.close(r));
    const submitted = await api('/api/async/do_tts_common', { text: 'Nobody listens', callbackUrl: deadUrl });
    const log = await until(
      () => deliveries({ taskId: submitted.body.data.taskId }),
      (d) => d.list.length >= 1,
    );
    expect(log.list.at(-1)).toMatchObject({
      statusCode: null,
      ok: false,
      responseHead: null,
      deliveryStatus: 'pending',
    });
    expect(log.list.at(-1)!.error).toBeTruthy();
    expect(log.list.at(-1)!.nextRetryAt).not.toBeNull();
  });

  it('redelivers the same event id with a fresh timestamp and signature', async () => {
    const secret = (await api('/api/webhook_secret', {})).body.data.secret as string;
    const before = received.at(-1)!;
    const { deliveryId } = (await deliveries({ taskId })).list[0]!;
    // A new second, so the fresh timestamp differs from the last send's.
    await new Promise((r) => setTimeout(r, 1100));
    script.push({ status: 202, body: 'again' });
    const again = await api('/api/webhooks/redeliver', { deliveryId });
    expect(again.body.data).toMatchObject({
      deliveryId,
      trigger: 'redeliver',
      attempt: 3,
      statusCode: 202,
      ok: true,
      responseHead: 'again',
    });
    const sent = received.at(-1)!;
    expect(sent.headers['webhook-id']).toBe(deliveryId);
    expect(Number(sent.headers['webhook-timestamp'])).toBeGreaterThan(Number(before.headers['webhook-timestamp']));
    expect(sent.headers['webhook-signature']).not.toBe(before.headers['webhook-signature']);
    expect(verifies(secret, sent.headers, sent.body)).toBe(true);
    expect(sent.body).toBe(before.body);
    expect((await deliveries({ taskId })).list).toHaveLength(3);
  });

  it('refuses a delivery of another account or none, and answers the dashboard too', async () => {
    const { deliveryId } = (await deliveries({ taskId })).list[0]!;
    const other = await createUser(t, 0);
    expect((await api('/api/webhooks/redeliver', { deliveryId }, other)).body.code).toBe(ERROR_CODES.notFound);
    expect((await api('/api/webhooks/redeliver', { deliveryId: 'msg_nothing' })).status).toBe(404);
    expect((await api('/api/webhooks/deliveries', {}, other)).body.data.list).toEqual([]);
    const res = await t.app.request('/apply/webhooks/deliveries', {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: user.token },
      body: JSON.stringify({ failedOnly: true }),
    });
    const body = (await res.json()) as { code: number; data: { list: WebhookAttemptView[] } };
    expect(body.code).toBe(0);
    expect(body.data.list.every((a) => !a.ok)).toBe(true);
  });

  it('removes the attempts with their task', async () => {
    await t.system.tasks.remove(user.id, taskId);
    const left = await t.database.db
      .selectFrom('webhook_attempts')
      .select('id')
      .where('task_id', '=', taskId)
      .execute();
    expect(left).toEqual([]);
    expect((await deliveries({ taskId })).list).toEqual([]);
  });
});
