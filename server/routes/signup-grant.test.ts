// The sign-up grant (SIGNUP_CREDITS): a new account starts with credits, once, in the ledger, whichever way it first
// signs in.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNUP_CREDITS_DEFAULT, SIGNUP_LEDGER_REASON } from '../../src/lib/product-rules';
import { findOrCreateUserByEmail } from '../accounts/users';
import { migrateToLatest } from '../db';
import { databaseEngines } from '../db/test-support/engines';
import { idpEnv, startFakeIdps, type FakeIdps } from '../test-support/fake-idp';
import { post, signIn, useAccountsTestApp } from '../test-support/accounts';

let idps: FakeIdps;
beforeAll(async () => (idps = await startFakeIdps()));
afterAll(() => idps.close());

// SIGNUP_CREDITS left unset (an empty value is "unset"): the production default applies.
const t = useAccountsTestApp(() => ({
  ...idpEnv(idps.google, idps.github),
  SIGNUP_CREDITS: '',
  PUBLIC_URL: 'http://api.test',
  SITE_URL: 'http://site.test',
}));

async function ledger(userId: string) {
  return t.database.db
    .selectFrom('credit_ledger')
    .select(['delta', 'reason', 'balance_after'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** Signs in with Google against the local identity provider, as the browser would. */
async function googleSignIn(email: string) {
  idps.google.identity = { email, verified: true, name: 'Gee' };
  const state = `dreamapi.${randomBytes(18).toString('base64url')}`;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const url = (await post(t.app, '/user/google/login/url', { state, codeChallenge: challenge })).body.data
    .url as string;
  const callback = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
  const siteRoot = new URL((await t.app.request(callback.pathname + callback.search)).headers.get('location')!);
  const res = await post(t.app, '/user/google/login/callback', {
    code: siteRoot.searchParams.get('code')!,
    state,
    codeVerifier: verifier,
  });
  return res.body.data as { userId: string; token: string };
}

describe('sign-up grant over the API', () => {
  it('a new email account starts with SIGNUP_CREDITS, written once in the ledger as signup-grant; signing in again adds nothing', async () => {
    const { token, userId } = await signIn(t, 'new@example.com');
    const info = await post(t.app, '/user/info', {}, { token });
    expect(info.body.data.userPoints).toBe(SIGNUP_CREDITS_DEFAULT);
    // Signing in again (here with Google, to the same address; a second code would wait out the resend interval).
    expect((await googleSignIn('new@example.com')).userId).toBe(userId);
    expect(await ledger(userId)).toEqual([
      { delta: SIGNUP_CREDITS_DEFAULT, reason: SIGNUP_LEDGER_REASON, balance_after: SIGNUP_CREDITS_DEFAULT },
    ]);
    const history = await post(t.app, '/user/credits/history', {}, { token });
    expect(history.body.data.list).toMatchObject([{ delta: SIGNUP_CREDITS_DEFAULT, reason: SIGNUP_LEDGER_REASON }]);
  });

  it('an account made by Google sign-in gets it too, and a later email sign-in to the same address does not add a second', async () => {
    const { userId } = await googleSignIn('both@example.com');
    const again = await signIn(t, 'both@example.com');
    expect(again.userId).toBe(userId);
    expect((await ledger(userId)).map((r) => r.reason)).toEqual([SIGNUP_LEDGER_REASON]);
  });

  it('SIGNUP_CREDITS=0 switches it off', async () => {
    await t.reopen({ SIGNUP_CREDITS: '0' });
    const { userId, token } = await signIn(t, 'none@example.com');
    expect((await post(t.app, '/user/info', {}, { token })).body.data.userPoints).toBe(0);
    expect(await ledger(userId)).toEqual([]);
  });
});

describe.each(databaseEngines('signup'))('concurrent first sign-ins on $label', (engine) => {
  it('twenty first sign-ins of one address at once (email and OAuth alike) make one account with one grant', async () => {
    const { database, dispose } = await engine.open();
    try {
      await migrateToLatest(database);
      const db = database.db;
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          findOrCreateUserByEmail(db, 'race@example.com', i % 2 ? { name: 'From OAuth' } : {}, { signupCredits: 50 }),
        ),
      );
      expect(new Set(results.map((r) => r.user.id)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      const userId = results[0]!.user.id;
      const rows = await db
        .selectFrom('credit_ledger')
        .select(['delta', 'reason'])
        .where('user_id', '=', userId)
        .execute();
      expect(rows).toEqual([{ delta: 50, reason: SIGNUP_LEDGER_REASON }]);
      expect(
        (await db.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirstOrThrow()).credits,
      ).toBe(50);
    } finally {
      await dispose();
    }
  });
});
