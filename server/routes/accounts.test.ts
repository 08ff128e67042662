// Email sign-in by code or link with its limits, sessions, user info and the guard on every account route (SPEC.md §4,
// §7).
import { describe, expect, it, vi } from 'vitest';
import {
  ACCOUNT_MESSAGES,
  API_CODES,
  LOGIN_CODES,
  LOGIN_GUESSES,
  LOGIN_LINK,
  MESSAGES,
} from '../../src/lib/product-rules';
import { post, postJson, signIn, useAccountsTestApp } from '../test-support/accounts';

const t = useAccountsTestApp();

const lastMail = (email: string) => t.mail.filter((m) => m.email === email).at(-1)!;
const lastCode = (email: string) => lastMail(email).code;
const linkToken = (email: string) => new URL(lastMail(email).link).searchParams.get(LOGIN_LINK.queryParam)!;
const wrong = (code: string) => String((Number(code) + 1) % 10000).padStart(4, '0');
const from = (ip: string) => ({ 'x-forwarded-for': ip });

/** Asks for a code and answers what the browser and the mailbox each got. */
async function requestCode(email: string, headers: Record<string, string> = {}) {
  const sent = await post(t.app, '/user/code', { email, type: 'login' }, headers);
  expect(sent.body.code).toBe(0);
  return { attemptId: sent.body.data.attemptId as string, code: lastCode(email), link: linkToken(email) };
}
const login = (email: string, code: string, attemptId: string, headers: Record<string, string> = {}) =>
  post(t.app, '/user/email/login', { email, code, attemptId }, headers);

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

  it("answers 'Sent Failed' when the mail server is down and lets the person retry at once", async () => {
    t.failMail.on = true;
    const failed = await post(t.app, '/user/code', { email: 'm@example.com', type: 'login' });
    expect(failed.status).toBe(503);
    expect(failed.body.msg).toBe(MESSAGES.sentFailed);
    t.failMail.on = false;
    expect((await post(t.app, '/user/code', { email: 'm@example.com', type: 'login' })).body.code).toBe(0);
  });
});

describe('sessions, /user/info, /user/infoUpdate and /user/exit/login', () => {
  it('answers the SPEC.md §3 user info and revokes the session on logout', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { token, userId } = await signIn(t, 'info@example.com');
    const info = await post(t.app, '/user/info', {}, { token });
    expect(info.body).toEqual({
      code: 0,
      msg: MESSAGES.successfully,
      data: {
        userId,
        userEmail: 'info@example.com',
        userName: 'info',
        userPoints: 0,
        company: '',
        channel: '',
        valid: 0,
        token,
        isOld: false,
        countryCode: '',
        infoAsked: false,
      },
    });
    vi.setSystemTime(Date.now() + LOGIN_CODES.resendIntervalMs);
    const second = await signIn(t, 'info@example.com');
    expect((await post(t.app, '/user/info', {}, { token: second.token })).body.data.isOld).toBe(true);

    expect((await post(t.app, '/user/exit/login', {}, { token })).body.code).toBe(0);
    const after = await post(t.app, '/user/info', {}, { token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(API_CODES.notLoggedIn);
    // The other session is untouched.
    expect((await post(t.app, '/user/info', {}, { token: second.token })).body.code).toBe(0);
  });

  it('answers isOld alike for a session and for an API key of the same user', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { token, userId } = await signIn(t, 'returning@example.com');
    const key = (await post(t.app, '/apply/playground', { userId }, { token })).body.data.key as string;
    expect((await post(t.app, '/user/info', {}, { authorization: `Bearer ${key}` })).body.data).toMatchObject({
      userId,
      isOld: false,
      token: '',
    });

    vi.setSystemTime(Date.now() + LOGIN_CODES.resendIntervalMs);
    const second = await signIn(t, 'returning@example.com');
    // The key, and both sessions: each sees a session besides its own, the first one included.
    for (const headers of [{ authorization: `Bearer ${key}` }, { token }, { token: second.token }] as Record<
      string,
      string
    >[])
      expect((await post(t.app, '/user/info', {}, headers)).body.data.isOld).toBe(true);
  });

  it('refuses an expired session', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const { token } = await signIn(t);
    vi.setSystemTime(Date.now() + 31 * 86_400_000);
    expect((await post(t.app, '/user/info', {}, { token })).body.code).toBe(API_CODES.notLoggedIn);
  });

  it('stores company and channel, and shows valid=1 for a suspended user', async () => {
    const { token, userId } = await signIn(t);
    const saved = await post(t.app, '/user/infoUpdate', { company: 'Acme', channel: 'a friend' }, { token });
    expect(saved.body).toEqual({ code: 0, msg: MESSAGES.submitSuccessfully, data: null });
    await t.database.db.updateTable('users').set({ suspended: 1 }).where('id', '=', userId).execute();
    const info = await post(t.app, '/user/info', {}, { token });
    expect(info.body.data).toMatchObject({ company: 'Acme', channel: 'a friend', valid: 1 });
  });
});

describe('guards and validation', () => {
  const protectedRoutes = [
    '/user/info',
    '/user/exit/login',
    '/user/infoUpdate',
    '/apply/playground',
    '/apply/playground/regenerate',
    '/user/invitation',
    '/user/credits/history',
  ];

  it.each(protectedRoutes)('%s answers 40001 without a session, with a bad token and with a bad key', async (path) => {
    for (const headers of [{}, { token: 'not-a-session' }, { authorization: 'Bearer sk-not-a-key' }] as Array<
      Record<string, string>
    >) {
      const res = await post(t.app, path, { company: 'x', userId: 'x', code: 'x' }, headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: API_CODES.notLoggedIn,
        msg: MESSAGES.notLoggedIn,
        data: null,
        requestId: expect.any(String),
      });
    }
  });

  const malformed: Array<[string, Record<string, string>, string]> = [
    ['/user/code', {}, 'email: is required'],
    ['/user/code', { email: 'nope', type: 'login' }, `email: ${MESSAGES.invalidEmail}`],
    ['/user/code', { email: 'a@example.com' }, "type: must be 'login'"],
    ['/user/code', { email: 'a@example.com', type: 'signup' }, "type: must be 'login'"],
    ['/user/email/login', { email: 'a@example.com' }, 'code: is required'],
    ['/user/email/login', { email: 'a@example.com', code: '12a4' }, 'code: must be 4 digits'],
    ['/user/email/login', { email: 'a@example.com', code: '12345' }, 'code: must be 4 digits'],
    [
      '/user/email/login',
      { email: 'a@example.com', code: '1234', attemptId: 'short' },
      'attemptId: must be the attemptId answered by /user/code',
    ],
    [
      '/user/email/login',
      { email: 'a@example.com', code: '1234', attemptId: 'a'.repeat(43), referer: 'x'.repeat(3000) },
      'referer: must be at most 2048 characters',
    ],
    ['/user/email/login', { linkToken: 'not a token' }, 'linkToken: must be the token of a sign-in link'],
    ['/user/infoUpdate', {}, 'company: is required'],
    ['/user/infoUpdate', { company: '   ' }, 'company: must not be empty'],
    ['/user/infoUpdate', { company: 'Acme', channel: 'x'.repeat(501) }, 'channel: must be at most 500 characters'],
    ['/apply/playground', {}, 'userId: is required'],
    ['/apply/playground/regenerate', {}, 'userId: is required'],
    ['/user/invitation', {}, `code: ${MESSAGES.enterInvitationCode}`],
    ['/user/invitation', { code: '  ' }, `code: ${MESSAGES.enterInvitationCode}`],
    ['/user/credits/history', { page: '0' }, 'page: must be 1 or more'],
    ['/user/credits/history', { page: 'abc' }, 'page: must be a number'],
    ['/user/credits/history', { pageSize: '1000' }, 'pageSize: must be at most 100'],
  ];

  it.each(malformed)('%s with %j answers 400 "%s"', async (path, body, message) => {
    const { token } = await signIn(t, 'valid@example.com');
    const res = await post(t.app, path, body, { token });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40000);
    expect(res.body.msg).toContain(message);
  });

  it('answers clear 4xx for broken JSON, a JSON array, a number where a string belongs and an unknown content type', async () => {
    const { token } = await signIn(t, 'json@example.com');
    const raw = (body: string, type: string) =>
      t.app.request('/user/invitation', { method: 'POST', headers: { 'content-type': type, token }, body });
    const broken = await raw('{"code":', 'application/json');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { msg: string }).msg).toBe('Request body is not valid JSON');
    expect((await raw('[1]', 'application/json')).status).toBe(400);
    const typed = await postJson(t.app, '/user/invitation', { code: 5 }, { token });
    expect(typed.status).toBe(400);
    expect(typed.body.msg).toBe('code: must be a string');
    expect((await raw('code=x', 'text/csv')).status).toBe(415);
  });
});
