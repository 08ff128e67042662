// Sign-in with SPEC.md §7's own payload (email and code, no attempt id): the newest code counts, and the guess budgets
// hold.
import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, LOGIN_GUESSES, MESSAGES } from '../../src/lib/product-rules';
import { post, useAccountsTestApp } from '../test-support/accounts';

const t = useAccountsTestApp();

const lastMail = (email: string) => t.mail.filter((m) => m.email === email).at(-1)!;
const wrong = (code: string) => String((Number(code) + 1) % 10000).padStart(4, '0');
const from = (ip: string) => ({ 'x-forwarded-for': ip });

async function requestCode(email: string, headers: Record<string, string> = {}) {
  const sent = await post(t.app, '/user/code', { email, type: 'login' }, headers);
  expect(sent.body.code).toBe(0);
  return { code: lastMail(email).code };
}

describe('POST /user/email/login without attemptId (SPEC.md §7)', () => {
  it("takes SPEC.md's own call without an attempt id: the email's newest code signs in, an older one does not, and guesses are counted", async () => {
    await t.reopen({ TRUST_PROXY: 'true' });
    const older = await requestCode('spec@example.com', from('198.51.100.61'));
    const newest = await requestCode('spec@example.com', from('198.51.100.62'));
    const stale = await post(t.app, '/user/email/login', {
      email: 'spec@example.com',
      code: older.code === newest.code ? wrong(newest.code) : older.code,
      referer: '',
      refererUrl: '',
    });
    expect([stale.status, stale.body.msg]).toEqual([400, ACCOUNT_MESSAGES.codeInvalid]);
    for (let i = 1; i < LOGIN_GUESSES.perEmailPerDay; i += 1)
      await post(t.app, '/user/email/login', { email: 'spec@example.com', code: wrong(newest.code) });
    const capped = await post(t.app, '/user/email/login', { email: 'spec@example.com', code: newest.code });
    expect([capped.status, capped.body.msg]).toEqual([429, ACCOUNT_MESSAGES.emailGuessCap]);
    // Another address has its own guess budget (the guesses above all came from one).
    const fresh = await requestCode('fresh@example.com', from('203.0.113.77'));
    const done = await post(
      t.app,
      '/user/email/login',
      { email: 'fresh@example.com', code: fresh.code, referer: 'google', refererUrl: '' },
      from('203.0.113.77'),
    );
    expect(done.body.msg).toBe(MESSAGES.successfully);
    const unknown = await post(
      t.app,
      '/user/email/login',
      { email: 'nobody@example.com', code: '1234' },
      from('203.0.113.78'),
    );
    expect([unknown.status, unknown.body.msg]).toEqual([400, ACCOUNT_MESSAGES.codeInvalid]);
  });
});
