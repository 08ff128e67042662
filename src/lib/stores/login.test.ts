// @vitest-environment happy-dom The login store against the real accounts server: sign-in storage, the §4 after-login
// steps in order, logout, attribution.
import { describe, expect, it, vi } from 'vitest';
import { post, signIn } from '../../../server/test-support/accounts';
import { COOKIE_NAMES, MESSAGES, MODALS, STORAGE_KEYS } from '../product-rules';
import { attribution, completeLogin, loginWithCode, logout } from './login';
import { $modal, $toast } from './modals';
import { $apiKey, $loggedIn, $user, rememberArrival, storedUserId } from './signed-in';
import { modalsSeen, useSessionServer } from './signed-in.fixtures';
import { getCookie } from '../storage';

const server = useSessionServer();

describe('completeLogin', () => {
  it('stores token, user id and the user id cookie, loads the user and the API key', async () => {
    const result = await signIn(server.t, 'ada@example.com');
    const user = await completeLogin(result);
    expect(user?.userEmail).toBe('ada@example.com');
    expect($user.get()?.userId).toBe(result.userId);
    expect($loggedIn.get()).toBe(true);
    expect(localStorage.getItem(STORAGE_KEYS.userToken)).toBe(result.token);
    expect(localStorage.getItem(STORAGE_KEYS.userId)).toBe(result.userId);
    expect(getCookie(COOKIE_NAMES.userId)).toBe(result.userId);
    const key = (await post(server.t.app, '/apply/playground', { userId: result.userId }, { token: result.token })).body
      .data.key as string;
    expect(key).toBeTruthy();
    expect($apiKey.get()).toBe(key);
    expect(localStorage.getItem(STORAGE_KEYS.userKey)).toBe(key);
  });

  it('offers the information modal once per account (remembered by the server), never to a user who gave a company', async () => {
    const first = await signIn(server.t, 'new@example.com');
    await completeLogin(first);
    expect(modalsSeen()).toEqual(['info']);
    expect($user.get()?.infoAsked).toBe(true);
    // Another browser, with nothing stored: the account was asked already.
    localStorage.clear();
    await completeLogin(first);
    expect(modalsSeen()).toEqual([]);
    const row = await server.t.database.db
      .selectFrom('users')
      .select('info_asked_at')
      .where('id', '=', first.userId)
      .executeTakeFirstOrThrow();
    expect(row.info_asked_at).toBeGreaterThan(0);

    const other = await signIn(server.t, 'corp@example.com');
    await server.t.database.db.updateTable('users').set({ company: 'Acme' }).where('id', '=', other.userId).execute();
    await completeLogin(other);
    expect(modalsSeen()).toEqual([]);
  });

  it('queues suspension, then information, then the bind-email prompt for a suspended user without an email', async () => {
    const { token, userId } = await signIn(server.t, 'gone@example.com');
    await server.t.database.db
      .updateTable('users')
      .set({ suspended: 1, email: null })
      .where('id', '=', userId)
      .execute();
    await completeLogin({ token, userId });
    expect(modalsSeen()).toEqual(['suspension', 'info', 'bindEmail']);
    expect(Number(localStorage.getItem(STORAGE_KEYS.bindEmailTime))).toBeGreaterThan(Date.now() - 60_000);
  });

  it('asks to bind an email at most once per interval', async () => {
    const { token, userId } = await signIn(server.t, 'noemail@example.com');
    await server.t.database.db
      .updateTable('users')
      .set({ email: null, company: 'Acme' })
      .where('id', '=', userId)
      .execute();
    localStorage.setItem(STORAGE_KEYS.bindEmailTime, String(Date.now() - MODALS.bindEmailIntervalMs + 60_000));
    await completeLogin({ token, userId });
    expect(modalsSeen()).toEqual([]);
    localStorage.setItem(STORAGE_KEYS.bindEmailTime, String(Date.now() - MODALS.bindEmailIntervalMs - 1));
    await completeLogin({ token, userId });
    expect(modalsSeen()).toEqual(['bindEmail']);
  });

  it('with deferred, stores the session but leaves the after-login steps to the next page', async () => {
    const result = await signIn(server.t, 'later@example.com');
    expect(await completeLogin(result, { deferred: true })).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.userToken)).toBe(result.token);
    expect(sessionStorage.getItem('afterLoginPending')).toBe('1');
    expect($modal.get()).toBeNull();
    expect(server.calls()).not.toContain('/user/info');
  });
});

describe('logout', () => {
  it('ends the server session and clears user, tokens, cookie and modals', async () => {
    const result = await signIn(server.t);
    await completeLogin(result);
    expect($modal.get()).toBe('info');
    expect(await logout()).toBe(true);
    const info = await post(server.t.app, '/user/info', {}, { token: result.token });
    expect(info.body.code).toBe(40001);
    expect($user.get()).toBeNull();
    expect($apiKey.get()).toBeNull();
    expect($modal.get()).toBeNull();
    for (const key of [STORAGE_KEYS.userToken, STORAGE_KEYS.userKey, STORAGE_KEYS.userId])
      expect(localStorage.getItem(key)).toBeNull();
    await new Promise((r) => setTimeout(r, 5)); // a Max-Age=0 cookie is gone once the clock moves on
    expect(getCookie(COOKIE_NAMES.userId)).toBeNull();
  });

  it('forgets the user even when the server already ended the session (40001)', async () => {
    $user.set({ userId: 'someone' } as never);
    localStorage.setItem(STORAGE_KEYS.userToken, 'expired');
    expect(await logout()).toBe(true);
    expect($user.get()).toBeNull();
  });

  it('sends the user from the dashboard to /, and leaves other pages where they are', async () => {
    const assign = vi.spyOn(location, 'assign').mockImplementation(() => undefined);
    await completeLogin(await signIn(server.t, 'first@example.com'));
    history.replaceState(null, '', '/pricing');
    await logout();
    expect(assign).not.toHaveBeenCalled();
    await completeLogin(await signIn(server.t, 'second@example.com'));
    history.replaceState(null, '', '/dashboard/key');
    await logout();
    expect(assign).toHaveBeenCalledWith('/');
  });

  it('says Failed and keeps the user when the server cannot be reached', async () => {
    await completeLogin(await signIn(server.t));
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    expect(await logout()).toBe(false);
    expect($toast.get()).toMatchObject({ message: MESSAGES.failed, kind: 'error' });
    expect($loggedIn.get()).toBe(true);
    expect(localStorage.getItem(STORAGE_KEYS.userToken)).toBeTruthy();
  });
});

describe('arrival and attribution', () => {
  it('keeps ?from= in a cookie and local storage and an outside referrer once; sign-up records both', async () => {
    history.replaceState(null, '', '/?from=partner-7');
    Object.defineProperty(document, 'referrer', { value: 'https://blog.example.org/post', configurable: true });
    rememberArrival();
    Object.defineProperty(document, 'referrer', { value: 'https://later.example.net/', configurable: true });
    rememberArrival();
    expect(getCookie(COOKIE_NAMES.from)).toBe('partner-7');
    expect(localStorage.getItem(STORAGE_KEYS.from)).toBe('partner-7');
    expect(attribution()).toEqual({ referer: 'partner-7', refererUrl: 'https://blog.example.org/post' });

    const sent = await post(server.t.app, '/user/code', { email: 'fresh@example.com', type: 'login' });
    await loginWithCode('fresh@example.com', server.t.mail.at(-1)!.code, sent.body.data.attemptId);
    expect($user.get()?.userEmail).toBe('fresh@example.com');
    const row = await server.t.database.db
      .selectFrom('users')
      .select(['referer', 'referer_url'])
      .where('email', '=', 'fresh@example.com')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ referer: 'partner-7', referer_url: 'https://blog.example.org/post' });
    delete (document as { referrer?: string }).referrer;
  });

  it('ignores a referrer from this site', () => {
    Object.defineProperty(document, 'referrer', { value: `${location.origin}/pricing`, configurable: true });
    rememberArrival();
    expect(localStorage.getItem(STORAGE_KEYS.refererUrl)).toBeNull();
    expect(attribution()).toEqual({ referer: '', refererUrl: '' });
    delete (document as { referrer?: string }).referrer;
  });

  it('reads the stored user id from local storage, then the userid and x-token cookies', () => {
    expect(storedUserId()).toBeNull();
    document.cookie = 'x-token=from-x-token; Path=/';
    expect(storedUserId()).toBe('from-x-token');
    document.cookie = 'userid=from-cookie; Path=/';
    expect(storedUserId()).toBe('from-cookie');
    localStorage.setItem(STORAGE_KEYS.userId, 'from-local');
    expect(storedUserId()).toBe('from-local');
  });
});
