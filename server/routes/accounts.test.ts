// Email-code sign-in, sessions, user info and the guard on every account route (issue 4 "Must show").
import { describe, expect, it, vi } from 'vitest';
import { ACCOUNT_MESSAGES, API_CODES, LOGIN_CODES, MESSAGES } from '../../src/lib/spec';
import { post, postJson, signIn, useAccountsTestApp } from '../test-support/accounts';

const t = useAccountsTestApp();

const lastCode = (email: string) => t.mail.filter((m) => m.email === email).at(-1)!.code;
const wrong = (code: string) => String((Number(code) + 1) % 10000).padStart(4, '0');

describe('POST /user/code and /user/email/login (SPEC.md §4, §7)', () => {
  it('mails a 4-digit code, signs in with it, creates the user once and records the attribution', async () => {
    const sent = await post(t.app, '/user/code', { email: 'Ann@Example.com', type: 'login' });
    expect(sent.body).toEqual({ code: 0, msg: MESSAGES.sentSuccessfully, data: null });
    expect(t.mail).toEqual([{ email: 'ann@example.com', code: expect.stringMatching(/^\d{4}$/) }]);

    const login = await post(t.app, '/user/email/login', { email: 'ann@example.com', code: lastCode('ann@example.com'), referer: 'google', refererUrl: 'https://ref.example/x' });
    expect(login.body.code).toBe(0);
    expect(login.body.data).toEqual({ userId: expect.any(String), token: expect.any(String) });

    const stored = await t.database.db.selectFrom('users').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ email: 'ann@example.com', referer: 'google', referer_url: 'https://ref.example/x' });
    // Codes and tokens are stored hashed.
    const codes = await t.database.db.selectFrom('login_codes').select('code_hash').execute();
    expect(codes[0]!.code_hash).not.toContain(t.mail[0]!.code);
    const sessions = await t.database.db.selectFrom('sessions').select('token_hash').execute();
    expect(sessions[0]!.token_hash).not.toBe(login.body.data.token);
  });

  it('refuses a used code, so a code signs in once', async () => {
    await post(t.app, '/user/code', { email: 'a@example.com', type: 'login' });
    const code = lastCode('a@example.com');
    expect((await post(t.app, '/user/email/login', { email: 'a@example.com', code })).body.code).toBe(0);
    const again = await post(t.app, '/user/email/login', { email: 'a@example.com', code });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe(ACCOUNT_MESSAGES.codeInvalid);
  });

  it('refuses the 6th guess even when it is right: after 5 wrong codes the code is dead', async () => {
    await post(t.app, '/user/code', { email: 'g@example.com', type: 'login' });
    const code = lastCode('g@example.com');
    for (let i = 0; i < LOGIN_CODES.maxAttempts; i += 1) {
      const guess = await post(t.app, '/user/email/login', { email: 'g@example.com', code: wrong(code) });
      expect(guess.status).toBe(400);
      expect(guess.body.msg).toBe(ACCOUNT_MESSAGES.codeInvalid);
    }
    const sixth = await post(t.app, '/user/email/login', { email: 'g@example.com', code });
    expect(sixth.status).toBe(400);
    expect(sixth.body.msg).toBe(ACCOUNT_MESSAGES.codeExhausted);
    expect(await t.database.db.selectFrom('users').selectAll().execute()).toEqual([]);
  });

  it('accepts the right code on the 5th guess, and parallel wrong guesses cannot exceed the cap', async () => {
    await post(t.app, '/user/code', { email: 'p@example.com', type: 'login' });
    const code = lastCode('p@example.com');
    const guesses = await Promise.all(Array.from({ length: 20 }, () => post(t.app, '/user/email/login', { email: 'p@example.com', code: wrong(code) })));
    expect(guesses.filter((g) => g.body.msg === ACCOUNT_MESSAGES.codeInvalid)).toHaveLength(LOGIN_CODES.maxAttempts);
    const row = await t.database.db.selectFrom('login_codes').select('attempts').executeTakeFirstOrThrow();
    expect(row.attempts).toBe(LOGIN_CODES.maxAttempts);
  });

  it('expires a code after 10 minutes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    await post(t.app, '/user/code', { email: 'e@example.com', type: 'login' });
    vi.setSystemTime(Date.now() + LOGIN_CODES.ttlMs + 1);
    const late = await post(t.app, '/user/email/login', { email: 'e@example.com', code: lastCode('e@example.com') });
    expect(late.status).toBe(400);
    expect(late.body.msg).toBe(ACCOUNT_MESSAGES.codeInvalid);
  });

  it('allows one resend per 60 s and says how long to wait', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    await post(t.app, '/user/code', { email: 'r@example.com', type: 'login' });
    vi.setSystemTime(Date.now() + 20_000);
    const early = await post(t.app, '/user/code', { email: 'r@example.com', type: 'login' });
    expect(early.status).toBe(429);
    expect(early.body.msg).toBe(ACCOUNT_MESSAGES.resendTooSoon);
    expect(early.headers.get('retry-after')).toBe('40');
    vi.setSystemTime(Date.now() + 40_000);
    expect((await post(t.app, '/user/code', { email: 'r@example.com', type: 'login' })).body.code).toBe(0);
    // Only the newest code signs in.
    expect(t.mail).toHaveLength(2);
  });

  it('caps codes per email per hour', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    for (let i = 0; i < LOGIN_CODES.perEmailPerHour; i += 1) {
      expect((await post(t.app, '/user/code', { email: 'h@example.com', type: 'login' })).body.code).toBe(0);
      vi.setSystemTime(Date.now() + LOGIN_CODES.resendIntervalMs);
    }
    const capped = await post(t.app, '/user/code', { email: 'h@example.com', type: 'login' });
    expect(capped.status).toBe(429);
    expect(capped.body.msg).toBe(ACCOUNT_MESSAGES.emailHourlyCap);
    vi.setSystemTime(Date.now() + LOGIN_CODES.windowMs);
    expect((await post(t.app, '/user/code', { email: 'h@example.com', type: 'login' })).body.code).toBe(0);
  });

  it('caps codes per IP per hour (behind a trusted proxy the forwarded address counts)', async () => {
    await t.reopen({ TRUST_PROXY: 'true' });
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    for (let i = 0; i < LOGIN_CODES.perIpPerHour; i += 1) {
      expect((await post(t.app, '/user/code', { email: `n${i}@example.com`, type: 'login' }, from('203.0.113.7'))).body.code).toBe(0);
    }
    const capped = await post(t.app, '/user/code', { email: 'last@example.com', type: 'login' }, from('203.0.113.7'));
    expect(capped.status).toBe(429);
    expect(capped.body.msg).toBe(ACCOUNT_MESSAGES.ipHourlyCap);
    expect((await post(t.app, '/user/code', { email: 'last@example.com', type: 'login' }, from('198.51.100.1'))).body.code).toBe(0);
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
      data: { userId, userEmail: 'info@example.com', userName: 'info', userPoints: 0, company: '', channel: '', valid: 0, token, isOld: false, countryCode: '' },
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
    for (const headers of [{}, { token: 'not-a-session' }, { authorization: 'Bearer sk-not-a-key' }] as Array<Record<string, string>>) {
      const res = await post(t.app, path, { company: 'x', userId: 'x', code: 'x' }, headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: API_CODES.notLoggedIn, msg: MESSAGES.notLoggedIn, data: null });
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
    ['/user/email/login', { email: 'a@example.com', code: '1234', referer: 'x'.repeat(3000) }, 'referer: must be at most 2048 characters'],
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
