// Credit caps per API key: 50 parallel submits on one key stop at its cap (SQLite, and PostgreSQL across two
// instances), the refusal's code and wording, and who may change a cap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../test-support/tasks';
import { postJson } from '../test-support/post-json';
import { appInstances, postgresSkipReason, type Instance } from '../test-support/instances';
import { BILLING_TEST_ENV } from '../test-support/app';
import { capPeriod, DEVELOPER_TOOL_CODES, ERROR_CODES, KEY_CAP_MESSAGES } from '../../src/lib/product-rules';

const ENV = { RATE_LIMIT_PER_MINUTE: '100000', TASK_USER_CONCURRENCY: '500' };
type Answer = {
  status: number;
  headers: Headers;
  body: { code: number; message: string; data: Record<string, unknown> | null };
};

const post = (
  app: Pick<Instance, 'app'>,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<Answer> => postJson<Answer['body']>(app.app, path, body, headers);
const bearer = (user: TestUser) => ({ authorization: `Bearer ${user.apiKey}` });
/** A 1-credit text-to-speech submit (charged per 250 characters). */
const submit = (app: Pick<Instance, 'app'>, user: TestUser) =>
  post(app, '/api/async/do_tts_common', { text: 'One credit of speech', audioId: 'en-us-male-1' }, bearer(user));

async function defaultKeyId(t: Pick<Instance, 'database'>, userId: string) {
  return (
    await t.database.db
      .selectFrom('api_keys')
      .select('id')
      .where('user_id', '=', userId)
      .where('is_default', '=', 1)
      .executeTakeFirstOrThrow()
  ).id;
}

/** 50 submits at once across the given instances; returns the answers and the balance after. */
async function burst(instances: Array<Pick<Instance, 'app'>>, user: TestUser) {
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) => submit(instances[i % instances.length]!, user)),
  );
  return { accepted: answers.filter((a) => a.body.code === 0), refused: answers.filter((a) => a.body.code !== 0) };
}

describe('key credit caps on SQLite', () => {
  let t: TasksTestApp;
  beforeAll(async () => {
    // Workers are not started: every task stays queued, so its hold is what the cap counts.
    t = await createTasksTestApp({ env: ENV });
  });
  afterAll(async () => t?.close());

  it('holds a daily cap of 20 under 50 parallel submits on one key', async () => {
    const user = await createUser(t, 10_000);
    const keyId = await defaultKeyId(t, user.id);
    const set = await post(t, '/apply/keys/set_caps', { keyId, dailyCap: 20 }, { token: user.token });
    expect(set.body.code, set.body.message).toBe(0);
    const { accepted, refused } = await burst([t], user);
    expect(accepted).toHaveLength(20);
    expect(refused).toHaveLength(30);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.body.code).toBe(DEVELOPER_TOOL_CODES.keyCapReached);
    }
    const reset = capPeriod('daily', Date.now()).resetsAt;
    expect(refused[0]!.body.message).toBe(
      KEY_CAP_MESSAGES.reached({ period: 'daily', cap: 20, used: 20, needs: 1, resetsAt: reset }),
    );
    expect(refused[0]!.body.message).toContain('daily credit cap of 20');
    expect(refused[0]!.body.message).toContain(new Date(reset).toISOString());
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    const caps = await post(t, '/api/keys/caps', {}, bearer(user));
    expect(caps.body.data!.list).toEqual([
      expect.objectContaining({ keyId, dailyCap: 20, monthlyCap: null, usedToday: 20, usedThisMonth: 20 }),
    ]);
  });

  it('counts a monthly cap, and a refunded task no longer counts', async () => {
    const user = await createUser(t, 10_000);
    const keyId = await defaultKeyId(t, user.id);
    await post(t, '/apply/keys/set_caps', { keyId, monthlyCap: 2 }, { token: user.token });
    const first = await submit(t, user);
    expect((await submit(t, user)).body.code).toBe(0);
    const third = await submit(t, user);
    expect(third.body.code).toBe(DEVELOPER_TOOL_CODES.keyCapReached);
    expect(third.body.message).toContain('monthly credit cap of 2');
    // Canceled: refunded, so its credit is free again under the cap.
    expect((await post(t, '/api/cancelAsyncTask', { taskId: first.body.data!.taskId }, bearer(user))).body.code).toBe(
      0,
    );
    expect((await submit(t, user)).body.code).toBe(0);
  });

  it('lets a key tighten its own caps but not loosen them; another key or the dashboard may', async () => {
    const user = await createUser(t, 100);
    const keyId = await defaultKeyId(t, user.id);
    expect((await post(t, '/api/keys/set_caps', { dailyCap: 50 }, bearer(user))).body.data).toMatchObject({
      keyId,
      dailyCap: 50,
    });
    expect((await post(t, '/api/keys/set_caps', { dailyCap: 10 }, bearer(user))).body.data).toMatchObject({
      dailyCap: 10,
    });
    for (const loosen of [{ dailyCap: 11 }, { dailyCap: null }]) {
      const refused = await post(t, '/api/keys/set_caps', loosen, bearer(user));
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(KEY_CAP_MESSAGES.ownRaise);
    }
    const other = await post(t, '/apply/keys/create', { name: 'CI' }, { token: user.token });
    const otherKey = { authorization: `Bearer ${(other.body.data as { key: string }).key}` };
    expect((await post(t, '/api/keys/set_caps', { keyId, dailyCap: null }, otherKey)).body.data).toMatchObject({
      keyId,
      dailyCap: null,
    });
    expect((await post(t, '/api/keys/set_caps', { keyId: 'no-such-key', dailyCap: 5 }, otherKey)).body.code).toBe(
      ERROR_CODES.notFound,
    );
    const bad = await post(t, '/api/keys/set_caps', { dailyCap: 0 }, bearer(user));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('dailyCap');
  });

  it('leaves keys without a cap and playground runs alone', async () => {
    const user = await createUser(t, 100);
    const { accepted } = await burst([t], user);
    expect(accepted).toHaveLength(50);
  });
});

const skip = await postgresSkipReason();
describe.skipIf(skip !== null)('key credit caps on PostgreSQL across two instances', () => {
  it('holds a daily cap of 20 under 50 parallel submits split over two servers', async () => {
    const instances = await appInstances(2, { ...ENV, ...BILLING_TEST_ENV });
    try {
      const [a] = instances.list;
      const user = await createUser(a!, 10_000);
      const keyId = await defaultKeyId(a!, user.id);
      expect((await post(a!, '/apply/keys/set_caps', { keyId, dailyCap: 20 }, { token: user.token })).body.code).toBe(
        0,
      );
      const { accepted, refused } = await burst(instances.list, user);
      expect(accepted).toHaveLength(20);
      expect(refused.every((r) => r.body.code === DEVELOPER_TOOL_CODES.keyCapReached)).toBe(true);
      const held = await a!.database.db
        .selectFrom('tasks')
        .select((eb) => eb.fn.sum<number>('credits_held').as('held'))
        .where('key_id', '=', keyId)
        .executeTakeFirstOrThrow();
      expect(Number(held.held)).toBe(20);
      const caps = await post(instances.list[1]!, '/api/keys/caps', {}, bearer(user));
      expect(caps.body.data!.list).toEqual([
        expect.objectContaining({ keyId, dailyCap: 20, usedToday: 20, usedThisMonth: 20 }),
      ]);
    } finally {
      await instances.close();
    }
  });
});
