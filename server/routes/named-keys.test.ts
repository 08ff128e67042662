// Named API keys beside the default key: list, create (shown once), revoke, limits, last-used times written by public
// API calls.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, HISTORY_MESSAGES, NAMED_API_KEYS, REQUEST_LOG } from '../../src/lib/product-rules';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../test-support/tasks';
import { postJson } from '../test-support/post-json';

let t: TasksTestApp;
let user: TestUser;

beforeEach(async () => {
  t = await createTasksTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000' } });
  user = await createUser(t, 10);
});
afterEach(() => t.close());

const call = (path: string, body: unknown, headers: Record<string, string> = { token: user.token }) =>
  postJson(t.app, path, body, headers);
const list = async () =>
  (await call('/apply/keys/list', {})).body.data.list as Array<{
    id: string;
    name: string;
    hint: string;
    isDefault: boolean;
    lastUsedAt: number | null;
  }>;

/** Waits until the request log's batched writes (one setImmediate away) are stored. */
const settle = () => new Promise((r) => setTimeout(r, 30));

describe('named API keys', () => {
  it('lists the default key first, with a hint and no secret; /apply/playground still answers that key', async () => {
    const keys = await list();
    expect(keys).toEqual([
      {
        id: expect.any(String),
        name: NAMED_API_KEYS.defaultName,
        hint: `${user.apiKey.slice(0, 7)}…${user.apiKey.slice(-4)}`,
        isDefault: true,
        createdAt: expect.any(Number),
        lastUsedAt: null,
      },
    ]);
    expect((await call('/apply/playground', { userId: user.id })).body.data.key).toBe(user.apiKey);
  });

  it('creates a named key shown once that works as Bearer, and revoking it stops it at once', async () => {
    const made = await call('/apply/keys/create', { name: 'CI pipeline' });
    expect(made.status).toBe(200);
    const key = made.body.data.key as string;
    expect(key).toMatch(/^sk-[A-Za-z0-9_-]{43}$/);
    expect(made.body.data).toMatchObject({
      name: 'CI pipeline',
      isDefault: false,
      hint: `${key.slice(0, 7)}…${key.slice(-4)}`,
    });
    // Only a hash and the hint are kept for a named key.
    const row = await t.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', made.body.data.id)
      .executeTakeFirstOrThrow();
    expect(row.key_ciphertext).toBeNull();
    expect(JSON.stringify(row)).not.toContain(key.slice(10, -4));
    expect((await list()).map((k) => k.name)).toEqual([NAMED_API_KEYS.defaultName, 'CI pipeline']);

    expect(
      (await call('/api/remaining_credits', {}, { authorization: `Bearer ${key}` })).body.data.remainingCredits,
    ).toBe(10);
    expect((await call('/apply/keys/revoke', { keyId: made.body.data.id })).status).toBe(200);
    const revoked = await call('/api/remaining_credits', {}, { authorization: `Bearer ${key}` });
    // Told what became of the key, not that it is wrong.
    expect(revoked).toMatchObject({
      status: 401,
      body: { msg: ACCOUNT_MESSAGES.revokedApiKey(new Date().toISOString().slice(0, 10)) },
    });
    // The default key is untouched.
    expect((await call('/api/remaining_credits', {}, { authorization: `Bearer ${user.apiKey}` })).status).toBe(200);
    expect((await list()).map((k) => k.name)).toEqual([NAMED_API_KEYS.defaultName]);
  });

  it('regenerating the default key leaves named keys working', async () => {
    const named = (await call('/apply/keys/create', { name: 'Worker' })).body.data.key as string;
    const fresh = (await call('/apply/playground/regenerate', { userId: user.id })).body.data.key as string;
    const old = await call('/api/remaining_credits', {}, { authorization: `Bearer ${user.apiKey}` });
    expect(old).toMatchObject({
      status: 401,
      body: { msg: ACCOUNT_MESSAGES.regeneratedApiKey(new Date().toISOString().slice(0, 10)) },
    });
    expect((await call('/api/remaining_credits', {}, { authorization: `Bearer ${fresh}` })).status).toBe(200);
    // A key that never existed is still just wrong.
    expect((await call('/api/remaining_credits', {}, { authorization: 'Bearer sk-never-issued' })).body.msg).toBe(
      ACCOUNT_MESSAGES.invalidApiKey,
    );
    expect((await call('/api/remaining_credits', {}, { authorization: `Bearer ${named}` })).status).toBe(200);
  });

  it('refuses revoking the default key, another user’s key, a bad name and more than the limit', async () => {
    const [defaultKey] = await list();
    const refused = await call('/apply/keys/revoke', { keyId: defaultKey!.id });
    expect(refused).toMatchObject({ status: 409, body: { msg: HISTORY_MESSAGES.keyDefaultRevoke } });

    const other = await createUser(t, 0);
    const theirs = (await call('/apply/keys/create', { name: 'theirs' }, { token: other.token })).body.data
      .id as string;
    expect(await call('/apply/keys/revoke', { keyId: theirs })).toMatchObject({
      status: 404,
      body: { msg: HISTORY_MESSAGES.keyNotFound },
    });
    expect((await call('/apply/keys/list', {}, { token: other.token })).body.data.list).toHaveLength(2);

    expect(await call('/apply/keys/create', { name: '   ' })).toMatchObject({
      status: 400,
      body: { msg: 'name: is required' },
    });
    expect((await call('/apply/keys/create', { name: 'x'.repeat(NAMED_API_KEYS.nameMaxLength + 1) })).body.msg).toBe(
      `name: must be at most ${NAMED_API_KEYS.nameMaxLength} characters`,
    );
    for (let i = 1; i < NAMED_API_KEYS.maxPerUser; i++)
      expect((await call('/apply/keys/create', { name: `key ${i}` })).status).toBe(200);
    expect(await call('/apply/keys/create', { name: 'one too many' })).toMatchObject({
      status: 409,
      body: { msg: HISTORY_MESSAGES.keyLimit },
    });
    expect(await list()).toHaveLength(NAMED_API_KEYS.maxPerUser);
  });

  it('records when each key was last used by a public API call, to the minute', async () => {
    const named = (await call('/apply/keys/create', { name: 'Used' })).body.data.key as string;
    const before = Date.now();
    await call('/api/remaining_credits', {}, { authorization: `Bearer ${named}` });
    await settle();
    const [defaultKey, usedKey] = await list();
    expect(defaultKey!.lastUsedAt).toBeNull();
    expect(usedKey!.lastUsedAt).toBeGreaterThanOrEqual(before);
    // A second call within the resolution does not write the key again.
    const first = usedKey!.lastUsedAt!;
    await call('/api/remaining_credits', {}, { authorization: `Bearer ${named}` });
    await settle();
    expect((await list())[1]!.lastUsedAt).toBe(first);
    expect(REQUEST_LOG.lastUsedResolutionMs).toBeGreaterThan(0);
  });
});
