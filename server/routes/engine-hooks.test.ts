// POST /engine-hooks/:engine/:taskId: fal hooks must carry fal's signature (checked against a local JWKS); valid ones
// are validated (4xx envelopes, never 5xx) and wake only a waiting poller.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_CODES, FAL_WEBHOOK, FAL_WEBHOOK_MESSAGES } from '../../src/lib/product-rules';
import { waitForHook } from '../engines/providers/hooks';
import { FAL_HOOK_HEADERS, type FalHookRejection } from '../engines/providers/fal-webhook-signature';
import {
  falHookHeaders,
  falTestKey,
  startJwksServer,
  type JwksServer,
  type SignedHook,
} from '../engines/providers/fal-webhook-signature.fixtures';
import { providerHooksUnverified } from '../metrics';
import { createTasksTestApp, type TasksTestApp } from '../test-support/tasks';

const falKey = falTestKey('fal-current');

let jwks: JwksServer;
let t: TasksTestApp;
beforeEach(async () => {
  jwks = await startJwksServer([falKey]);
  t = await createTasksTestApp({ env: { FAL_WEBHOOK_JWKS_URL: jwks.url } });
});
afterEach(async () => {
  await t.close();
  await jwks.close();
});

async function post(pathname: string, body: string, type = 'application/json', headers: Record<string, string> = {}) {
  const res = await t.app.request(pathname, { method: 'POST', headers: { 'content-type': type, ...headers }, body });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: unknown } };
}

/** A fal hook signed as fal signs it (by `falKey` unless told otherwise). */
function postSigned(pathname: string, body: string, type = 'application/json', sign: Partial<SignedHook> = {}) {
  return post(pathname, body, type, falHookHeaders({ key: falKey, body, ...sign }));
}

/** How many fal hooks were refused for `reason` so far (the registry is per process: tests compare deltas). */
async function refused(reason: FalHookRejection): Promise<number> {
  return (
    (await providerHooksUnverified.get()).values.find((v) => v.labels.engine === 'fal' && v.labels.reason === reason)
      ?.value ?? 0
  );
}

const OK_BODY = JSON.stringify({ request_id: 'req-1', status: 'OK', payload: { video: { url: 'https://x' } } });
/** The answer to a hook that is not believed (the error body also carries the request id). */
const UNVERIFIED = {
  status: 401,
  body: { code: ERROR_CODES.forbidden, msg: FAL_WEBHOOK_MESSAGES.unverified, data: null },
};

describe('POST /engine-hooks/:engine/:taskId', () => {
  it('a signed hook for a job someone is waiting on wakes that waiter and answers ok', async () => {
    const waiting = new AbortController();
    let woken = false;
    // The waiter would sleep a minute; only the hook can end it before the checks below.
    void waitForHook('fal/task-1', 60_000, waiting.signal).then(
      () => (woken = true),
      () => {},
    );
    const answer = await postSigned('/engine-hooks/fal/task-1', OK_BODY);
    await new Promise((r) => setImmediate(r));
    waiting.abort();
    expect(answer).toEqual({ status: 200, body: { code: 0, msg: 'ok', data: null } });
    expect(woken).toBe(true);
  });

  it('a signed hook for a key no one waits on answers 200 "no job waiting" (so the provider stops retrying)', async () => {
    expect(
      await postSigned('/engine-hooks/fal/unknown-task', JSON.stringify({ request_id: 'r', status: 'ERROR' })),
    ).toEqual({
      status: 200,
      body: { code: 0, msg: 'no job waiting', data: null },
    });
    expect((await postSigned('/engine-hooks/fal/unknown-task', '')).body.msg).toBe('no job waiting');
  });

  describe('an unverified fal hook is ignored: 401, counted by reason, and no waiter is woken', () => {
    const stranger = falTestKey('stranger');
    it.each<[string, FalHookRejection, () => Record<string, string>, string]>([
      ['no signature at all', 'unsigned', () => ({}), OK_BODY],
      [
        'a wrong signature',
        'signature',
        () => ({ ...falHookHeaders({ key: falKey, body: OK_BODY }), [FAL_HOOK_HEADERS.signature]: '0'.repeat(128) }),
        OK_BODY,
      ],
      [
        'a stale timestamp',
        'stale',
        () =>
          falHookHeaders({
            key: falKey,
            body: OK_BODY,
            timestamp: Math.floor(Date.now() / 1000) - FAL_WEBHOOK.toleranceS - 5,
          }),
        OK_BODY,
      ],
      [
        'a body changed after signing',
        'signature',
        () => falHookHeaders({ key: falKey, body: OK_BODY }),
        OK_BODY.replace('"OK"', '"ERROR"'),
      ],
      [
        'an unknown key (after one refetch of the key set)',
        'signature',
        () => falHookHeaders({ key: stranger, body: OK_BODY }),
        OK_BODY,
      ],
    ])('%s', async (_what, reason, headers, body) => {
      const waiting = new AbortController();
      let woken = false;
      void waitForHook('fal/task-forged', 60_000, waiting.signal).then(
        () => (woken = true),
        () => {},
      );
      const before = await refused(reason);
      const answer = await post('/engine-hooks/fal/task-forged', body, 'application/json', headers());
      await new Promise((r) => setImmediate(r));
      waiting.abort();
      expect(answer).toMatchObject(UNVERIFIED);
      expect(woken).toBe(false);
      expect(await refused(reason)).toBe(before + 1);
    });
  });

  it('an unknown key makes the app fetch the key set once, not once per forged hook', async () => {
    const stranger = falTestKey('stranger');
    for (let i = 0; i < 5; i++)
      expect(
        (
          await post(
            '/engine-hooks/fal/task-x',
            OK_BODY,
            'application/json',
            falHookHeaders({ key: stranger, body: OK_BODY }),
          )
        ).status,
      ).toBe(401);
    expect(jwks.fetches()).toBe(1);
  });

  it("fal's key set out of reach: the hook is refused as keys_unavailable (fal retries it later)", async () => {
    jwks.failWith(503);
    const before = await refused('keys_unavailable');
    expect(await postSigned('/engine-hooks/fal/task-1', OK_BODY)).toMatchObject(UNVERIFIED);
    expect(await refused('keys_unavailable')).toBe(before + 1);
  });

  it.each([
    ['bad JSON', '{"request_id": ', 'application/json'],
    ['a JSON array', '[1, 2]', 'application/json'],
    ['a field of the wrong type', JSON.stringify({ status: 42 }), 'application/json'],
    ['an oversized field', JSON.stringify({ request_id: 'x'.repeat(500) }), 'application/json'],
  ])('a signed body with %s is refused with a 400 envelope, never a 5xx', async (_what, body, type) => {
    const answer = await postSigned('/engine-hooks/fal/task-2', body, type);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: ERROR_CODES.invalidInput, data: null });
    expect(answer.body.msg.length).toBeGreaterThan(0);
  });

  it('an unsupported body type is refused with a 4xx envelope', async () => {
    const answer = await postSigned('/engine-hooks/fal/task-2', 'status=OK', 'text/plain');
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.code).not.toBe(0);
  });

  it('an unknown engine or a malformed task id in the path is refused with a 400 envelope', async () => {
    for (const pathname of [
      '/engine-hooks/nobody/task-3',
      `/engine-hooks/fal/${'a'.repeat(101)}`,
      '/engine-hooks/fal/bad%20id',
    ]) {
      const answer = await post(pathname, '{}');
      expect(answer.status, pathname).toBe(400);
      expect(answer.body.code, pathname).toBe(ERROR_CODES.invalidInput);
    }
  });
});
