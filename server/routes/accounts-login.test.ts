// Email sign-in by code or link (SPEC.md §4, §7): the mail, the sign-in, used, crossed and expired codes and links, and
// a mail server that is down.
import { describe, expect, it, vi } from 'vitest';
import { ACCOUNT_MESSAGES, LOGIN_CODES, LOGIN_GUESSES, MESSAGES } from '../../src/lib/product-rules';
import { post, useAccountsTestApp } from '../test-support/accounts';
import { from, mailSignIn, wrong } from './accounts-login.fixtures';

const t = useAccountsTestApp();
const { lastCode, linkToken, requestCode, login } = mailSignIn(t);

describe('POST /user/code and /user/email/login (SPEC.md §4, §7)', () => {
  it('mails a 4-digit code and a sign-in link, answers an attempt id, signs in, creates the user once and records the attribution', async () => {
    const sent = await post(t.app, '/user/code', { email: 'Ann@Example.com', type: 'login' });
    expect(sent.body).toEqual({
      code: 0,
      msg: MESSAGES.sentSuccessfully,
      data: { attemptId: expect.stringMatching(LOGIN_CODES.secretPattern) },
    });
    expect(t.mail).toEqual([
      {
        email: 'ann@example.com',
        code: expect.stringMatching(/^\d{4}$/),
        link: expect.stringMatching(/^http:\/\/localhost:\d+\/\?signin=[\w-]{43}$/),
      },
    ]);

    const done = await post(t.app, '/user/email/login', {
      email: 'ann@example.com',
      code: lastCode('ann@example.com'),
      attemptId: sent.body.data.attemptId,
      referer: 'google',
      refererUrl: 'https://ref.example/x',
    });
    expect(done.body.code).toBe(0);
    expect(done.body.data).toEqual({ userId: expect.any(String), token: expect.any(String) });

    const stored = await t.database.db.selectFrom('users').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      email: 'ann@example.com',
      referer: 'google',
      referer_url: 'https://ref.example/x',
    });
    // Codes, attempt ids, links and tokens are stored hashed.
    const codes = await t.database.db.selectFrom('login_codes').selectAll().execute();
    expect(codes[0]!.code_hash).not.toContain(t.mail[0]!.code);
    expect(JSON.stringify(codes)).not.toContain(sent.body.data.attemptId);
    expect(JSON.stringify(codes)).not.toContain(linkToken('ann@example.com'));
    const sessions = await t.database.db.selectFrom('sessions').select('token_hash').execute();
    expect(sessions[0]!.token_hash).not.toBe(done.body.data.token);
  });

  it('says a used code was already used when it is replayed, not that there were too many wrong codes', async () => {
    const { attemptId, code } = await requestCode('a@example.com');
    expect((await login('a@example.com', code, attemptId)).body.code).toBe(0);
    for (let i = 0; i < LOGIN_GUESSES.perEmailPerDay + 2; i += 1) {
      const again = await login('a@example.com', code, attemptId);
      expect([again.status, again.body.msg]).toEqual([400, ACCOUNT_MESSAGES.codeUsed]);
    }
  });

  it('refuses a code with an attempt of another email', async () => {
    const ann = await requestCode('ann@example.com');
    const bob = await requestCode('bob@example.com');
    const crossed = await login('ann@example.com', ann.code, bob.attemptId);
    expect([crossed.status, crossed.body.msg]).toEqual([400, ACCOUNT_MESSAGES.attemptUnknown]);
    expect((await login('ann@example.com', ann.code, ann.attemptId)).body.code).toBe(0);
  });

  it("signs the owner in with the mailed link after a stranger spent the email's guess budget", async () => {
    await t.reopen({ TRUST_PROXY: 'true' });
    const owner = await requestCode('o@example.com', from('203.0.113.1'));
    const theirs = await requestCode('o@example.com', from('198.51.100.1'));
    for (let i = 0; i < LOGIN_GUESSES.perEmailPerDay; i += 1)
      await login('o@example.com', wrong(theirs.code), theirs.attemptId, from(`198.51.100.${i}`));
    const blocked = await login('o@example.com', owner.code, owner.attemptId, from('203.0.113.1'));
    expect([blocked.status, blocked.body.msg]).toEqual([429, ACCOUNT_MESSAGES.emailGuessCap]);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);

    const linked = await post(
      t.app,
      '/user/email/login',
      { linkToken: owner.link, referer: 'mail' },
      from('203.0.113.1'),
    );
    expect(linked.body.code).toBe(0);
    expect(linked.body.data).toEqual({ userId: expect.any(String), token: expect.any(String) });
    const info = await post(t.app, '/user/info', {}, { token: linked.body.data.token });
    expect(info.body.data.userEmail).toBe('o@example.com');
    const replay = await post(t.app, '/user/email/login', { linkToken: owner.link });
    expect([replay.status, replay.body.msg]).toEqual([400, ACCOUNT_MESSAGES.linkUsed]);
    const bogus = await post(t.app, '/user/email/login', { linkToken: 'x'.repeat(43) });
    expect([bogus.status, bogus.body.msg]).toEqual([400, ACCOUNT_MESSAGES.linkInvalid]);
  });

  it('expires a code and its link after 10 minutes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const sent = await requestCode('e@example.com');
    vi.setSystemTime(Date.now() + LOGIN_CODES.ttlMs + 1);
    const late = await login('e@example.com', sent.code, sent.attemptId);
    expect([late.status, late.body.msg]).toEqual([400, ACCOUNT_MESSAGES.codeExpired]);
    const lateLink = await post(t.app, '/user/email/login', { linkToken: sent.link });
    expect([lateLink.status, lateLink.body.msg]).toEqual([400, ACCOUNT_MESSAGES.linkExpired]);
  });

  it("answers 'Sent Failed' when the mail server is down and lets the person retry at once", async () => {
    t.failMail.on = true;
    const failed = await post(t.app, '/user/code', { email: 'm@example.com', type: 'login' });
    expect(failed.status).toBe(503);
    expect(failed.body.msg).toBe(MESSAGES.sentFailed);
    t.failMail.on = false;
    expect((await post(t.app, '/user/code', { email: 'm@example.com', type: 'login' })).body.code).toBe(0);
  });
});
