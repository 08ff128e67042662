// The limits on email sign-in (SPEC.md §4, §7): guess budgets per email and per IP, the resend interval, and the
// hourly caps on codes.
import { describe, expect, it, vi } from 'vitest';
import { ACCOUNT_MESSAGES, LOGIN_CODES, LOGIN_GUESSES } from '../../src/lib/product-rules';
import { post, useAccountsTestApp } from '../test-support/accounts';
import { from, mailSignIn, wrong } from './accounts-login.fixtures';

const t = useAccountsTestApp();
const { requestCode, login } = mailSignIn(t);

describe('limits of POST /user/code and /user/email/login (SPEC.md §4, §7)', () => {
  it("never lets a stranger's guesses on their own attempts spoil the owner's code", async () => {
    await t.reopen({ TRUST_PROXY: 'true' });
    const owner = await requestCode('o@example.com', from('203.0.113.1'));
    // The stranger asks for codes to the same address (mailed to the owner) and guesses on those attempts.
    for (let i = 0; i < LOGIN_GUESSES.perEmailPerDay - 1; i += 1) {
      const theirs = await requestCode('o@example.com', from(`198.51.100.${i}`));
      const guess = await login('o@example.com', wrong(theirs.code), theirs.attemptId, from(`198.51.100.${i}`));
      expect(guess.body.msg).toBe(ACCOUNT_MESSAGES.codeInvalid);
    }
    expect((await login('o@example.com', owner.code, owner.attemptId, from('203.0.113.1'))).body.code).toBe(0);
  });

  it('stops one IP guessing across 5 emails at its budget, while other IPs still sign in', async () => {
    await t.reopen({ TRUST_PROXY: 'true' });
    const answers: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const sent = await requestCode(`v${i}@example.com`, from('192.0.2.9'));
      // Each guess writes a new first X-Forwarded-For entry; the proxy's own entry after it is what counts.
      for (let g = 0; g < LOGIN_GUESSES.perEmailPerDay; g += 1)
        answers.push(
          (await login(`v${i}@example.com`, wrong(sent.code), sent.attemptId, from(`${g + 1}.${i}.0.1, 192.0.2.9`)))
            .body.msg,
        );
    }
    expect(answers.filter((m) => m === ACCOUNT_MESSAGES.codeInvalid)).toHaveLength(LOGIN_GUESSES.perIpPerDay);
    expect(answers.at(-1)).toBe(ACCOUNT_MESSAGES.ipGuessCap);
    const owner = await requestCode('v4@example.com', from('203.0.113.4'));
    expect((await login('v4@example.com', owner.code, owner.attemptId, from('203.0.113.4'))).body.code).toBe(0);
  });

  it('allows one resend per 60 s per requesting IP and says how long to wait; every attempt keeps its own code', async () => {
    await t.reopen({ TRUST_PROXY: 'true' });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const first = await requestCode('r@example.com', from('203.0.113.1'));
    vi.setSystemTime(Date.now() + 20_000);
    const early = await post(t.app, '/user/code', { email: 'r@example.com', type: 'login' }, from('203.0.113.1'));
    expect(early.status).toBe(429);
    expect(early.body.msg).toBe(ACCOUNT_MESSAGES.resendTooSoon);
    expect(early.headers.get('retry-after')).toBe('40');
    // A request from elsewhere does not hold the owner's network up.
    await requestCode('r@example.com', from('198.51.100.1'));
    vi.setSystemTime(Date.now() + 40_000);
    const second = await requestCode('r@example.com', from('203.0.113.1'));
    expect(t.mail).toHaveLength(3);
    expect((await login('r@example.com', first.code, first.attemptId)).body.code).toBe(0);
    expect((await login('r@example.com', second.code, second.attemptId)).body.code).toBe(0);
  });

  it('caps codes per email per requesting IP, and per email from all IPs at a larger number', async () => {
    await t.reopen({ TRUST_PROXY: 'true' });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    for (let i = 0; i < LOGIN_CODES.perEmailPerIpPerHour; i += 1) {
      expect(
        (await post(t.app, '/user/code', { email: 'h@example.com', type: 'login' }, from('198.51.100.1'))).body.code,
      ).toBe(0);
      vi.setSystemTime(Date.now() + LOGIN_CODES.resendIntervalMs);
    }
    const capped = await post(t.app, '/user/code', { email: 'h@example.com', type: 'login' }, from('198.51.100.1'));
    expect([capped.status, capped.body.msg]).toEqual([429, ACCOUNT_MESSAGES.emailIpHourlyCap]);
    // The owner elsewhere still gets codes.
    expect(
      (await post(t.app, '/user/code', { email: 'h@example.com', type: 'login' }, from('203.0.113.1'))).body.code,
    ).toBe(0);

    let sent = LOGIN_CODES.perEmailPerIpPerHour + 1;
    for (let ip = 2; sent < LOGIN_CODES.perEmailPerHour; ip += 1, sent += 1) {
      expect(
        (await post(t.app, '/user/code', { email: 'h@example.com', type: 'login' }, from(`198.51.100.${ip}`))).body
          .code,
      ).toBe(0);
    }
    const full = await post(t.app, '/user/code', { email: 'h@example.com', type: 'login' }, from('192.0.2.1'));
    expect([full.status, full.body.msg]).toEqual([429, ACCOUNT_MESSAGES.emailHourlyCap]);
    vi.setSystemTime(Date.now() + LOGIN_CODES.windowMs);
    expect(
      (await post(t.app, '/user/code', { email: 'h@example.com', type: 'login' }, from('192.0.2.1'))).body.code,
    ).toBe(0);
  });

  it('caps codes per IP per hour (behind a trusted proxy the forwarded address counts)', async () => {
    await t.reopen({ TRUST_PROXY: 'true' });
    for (let i = 0; i < LOGIN_CODES.perIpPerHour; i += 1) {
      expect(
        (await post(t.app, '/user/code', { email: `n${i}@example.com`, type: 'login' }, from('203.0.113.7'))).body.code,
      ).toBe(0);
    }
    const capped = await post(t.app, '/user/code', { email: 'last@example.com', type: 'login' }, from('203.0.113.7'));
    expect(capped.status).toBe(429);
    expect(capped.body.msg).toBe(ACCOUNT_MESSAGES.ipHourlyCap);
    expect(
      (await post(t.app, '/user/code', { email: 'last@example.com', type: 'login' }, from('198.51.100.1'))).body.code,
    ).toBe(0);
  });
});
