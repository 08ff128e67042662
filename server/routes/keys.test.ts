// API keys: created once, encrypted at rest, accepted as Bearer, and a regenerated key stops the old one.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { requireApiKey, type AuthEnv } from '../accounts';
import { ACCOUNT_MESSAGES, API_CODES } from '../../src/lib/product-rules';
import { errorResponder } from '../http/errors';
import { createLogger } from '../log';
import { post, signIn, useAccountsTestApp } from '../test-support/accounts';

const t = useAccountsTestApp();

describe('POST /apply/playground and /apply/playground/regenerate', () => {
  it('returns the same key on every call and keeps only ciphertext and hash at rest', async () => {
    const { token, userId } = await signIn(t);
    const first = await post(t.app, '/apply/playground', { userId }, { token });
    const second = await post(t.app, '/apply/playground', { userId }, { token });
    expect(first.body.data.key).toMatch(/^sk-[A-Za-z0-9_-]{43}$/);
    expect(second.body.data.key).toBe(first.body.data.key);
    const row = await t.database.db.selectFrom('api_keys').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(first.body.data.key.slice(3));
  });

  it('accepts the key as Bearer, and a regenerated key stops the old one at once', async () => {
    const { token, userId } = await signIn(t);
    const old = (await post(t.app, '/apply/playground', { userId }, { token })).body.data.key as string;
    expect((await post(t.app, '/user/info', {}, { authorization: `Bearer ${old}` })).body.data.userId).toBe(userId);

    const fresh = (await post(t.app, '/apply/playground/regenerate', { userId }, { token })).body.data.key as string;
    expect(fresh).not.toBe(old);
    const refused = await post(t.app, '/user/info', {}, { authorization: `Bearer ${old}` });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe(API_CODES.notLoggedIn);
    expect((await post(t.app, '/user/info', {}, { authorization: `Bearer ${fresh}` })).body.data.userId).toBe(userId);
    expect((await post(t.app, '/apply/playground', { userId }, { token })).body.data.key).toBe(fresh);
  });

  it("refuses another user's id with 403", async () => {
    const { token } = await signIn(t);
    const res = await post(t.app, '/apply/playground', { userId: 'someone-else' }, { token });
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe(ACCOUNT_MESSAGES.userIdMismatch);
  });

  it('keeps keys readable only with the same secret', async () => {
    const { token, userId } = await signIn(t);
    await post(t.app, '/apply/playground', { userId }, { token });
    const row = await t.database.db.selectFrom('api_keys').select('key_ciphertext').executeTakeFirstOrThrow();
    expect(row.key_ciphertext).toMatch(/^v1\./);
  });
});

describe('requireApiKey (for the public API routes of later issues)', () => {
  it('lets a valid Bearer key through and refuses a session token or a wrong key', async () => {
    const { token, userId } = await signIn(t);
    const key = (await post(t.app, '/apply/playground', { userId }, { token })).body.data.key as string;
    const api = new Hono<AuthEnv>();
    api.onError(errorResponder(createLogger('silent')));
    api.post('/api/whoami', requireApiKey(t.database.db), (c) => c.json({ id: c.get('user').id }));
    const call = (headers: Record<string, string>) => api.request('/api/whoami', { method: 'POST', headers });
    expect(await (await call({ authorization: `Bearer ${key}` })).json()).toEqual({ id: userId });
    const wrong = await call({ authorization: 'Bearer sk-wrong' });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { msg: string }).msg).toBe(ACCOUNT_MESSAGES.invalidApiKey);
    expect((await call({ token })).status).toBe(401);
  });
});
