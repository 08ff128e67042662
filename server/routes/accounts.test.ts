// Sessions, user info and logout, and the guard and input checks on every account route (SPEC.md §3, §7); sign-in
// itself is in accounts-login.test.ts and accounts-login-limits.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { API_CODES, LOGIN_CODES, MESSAGES } from '../../src/lib/product-rules';
import { post, postJson, signIn, useAccountsTestApp } from '../test-support/accounts';

const t = useAccountsTestApp();

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
