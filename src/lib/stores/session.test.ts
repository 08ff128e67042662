// @vitest-environment happy-dom
// The session store against the real accounts server: sign-in storage, the §4 after-login steps, 40001 forgetting, logout.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAccountsTestApp, post, signIn, type AccountsTestApp } from '../../../server/test-support/accounts';
import { routeBrowserTo, type RoutedBrowser } from '../../../server/test-support/browser';
import { accountsApi } from '../api';
import { COOKIE_NAMES, MESSAGES, MODALS, STORAGE_KEYS } from '../spec';
import { $modal, $toast, closeModal, resetModals } from './modals';
import { $apiKey, $loggedIn, $user, attribution, completeLogin, loginWithCode, logout, refreshUser, rememberArrival, storedUserId } from './session';
import { getCookie } from '../storage';

let t: AccountsTestApp;
let net: RoutedBrowser;
/** Paths the store asked the server for, in order. */
const calls = () => net.sent.map((r) => r.path);

beforeEach(async () => {
  // The real server on in-memory SQLite answers the store's calls.
  t = await createAccountsTestApp();
  net = routeBrowserTo(t.app);
});
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
  for (const name of ['userid', 'x-token', 'from']) document.cookie = `${name}=; Max-Age=0; Path=/`;
  resetModals();
  $user.set(undefined);
  $apiKey.set(null);
  $toast.set(null);
  history.replaceState(null, '', '/');
  await t.close();
});

/** The modals in the order they would be seen, closing each. */
function modalsSeen(): string[] {
  const seen: string[] = [];
  while ($modal.get()) {
    seen.push($modal.get()!);
    closeModal();
  }
  return seen;
}

describe('completeLogin', () => {
  it('stores token, user id and the user id cookie, loads the user and the API key', async () => {
    const result = await signIn(t, 'ada@example.com');
    const user = await completeLogin(result);
    expect(user?.userEmail).toBe('ada@example.com');
    expect($user.get()?.userId).toBe(result.userId);
    expect($loggedIn.get()).toBe(true);
    expect(localStorage.getItem(STORAGE_KEYS.userToken)).toBe(result.token);
    expect(localStorage.getItem(STORAGE_KEYS.userId)).toBe(result.userId);
    expect(getCookie(COOKIE_NAMES.userId)).toBe(result.userId);
    const key = (await post(t.app, '/apply/playground', { userId: result.userId }, { token: result.token })).body.data.key as string;
    expect(key).toBeTruthy();
    expect($apiKey.get()).toBe(key);
    expect(localStorage.getItem(STORAGE_KEYS.userKey)).toBe(key);
  });

  it('shows the information modal once per user, and never to a user who gave a company', async () => {
    const first = await signIn(t, 'new@example.com');
    await completeLogin(first);
    expect(modalsSeen()).toEqual(['info']);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.hasRead)!)).toEqual([first.userId]);
    await completeLogin(first);
    expect(modalsSeen()).toEqual([]);

    const other = await signIn(t, 'corp@example.com');
    await t.database.db.updateTable('users').set({ company: 'Acme' }).where('id', '=', other.userId).execute();
    await completeLogin(other);
    expect(modalsSeen()).toEqual([]);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.hasRead)!)).toEqual([first.userId, other.userId]);
  });

  it('queues suspension, then information, then the bind-email prompt for a suspended user without an email', async () => {
    const { token, userId } = await signIn(t, 'gone@example.com');
    await t.database.db.updateTable('users').set({ suspended: 1, email: null }).where('id', '=', userId).execute();
    await completeLogin({ token, userId });
    expect(modalsSeen()).toEqual(['suspension', 'info', 'bindEmail']);
    expect(Number(localStorage.getItem(STORAGE_KEYS.bindEmailTime))).toBeGreaterThan(Date.now() - 60_000);
  });

  it('asks to bind an email at most once per interval', async () => {
    const { token, userId } = await signIn(t, 'noemail@example.com');
    await t.database.db.updateTable('users').set({ email: null, company: 'Acme' }).where('id', '=', userId).execute();
    localStorage.setItem(STORAGE_KEYS.bindEmailTime, String(Date.now() - MODALS.bindEmailIntervalMs + 60_000));
    await completeLogin({ token, userId });
    expect(modalsSeen()).toEqual([]);
    localStorage.setItem(STORAGE_KEYS.bindEmailTime, String(Date.now() - MODALS.bindEmailIntervalMs - 1));
    await completeLogin({ token, userId });
    expect(modalsSeen()).toEqual(['bindEmail']);
  });

  it('with deferred, stores the session but leaves the after-login steps to the next page', async () => {
    const result = await signIn(t, 'later@example.com');
    expect(await completeLogin(result, { deferred: true })).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.userToken)).toBe(result.token);
    expect(sessionStorage.getItem('afterLoginPending')).toBe('1');
    expect($modal.get()).toBeNull();
    expect(calls()).not.toContain('/user/info');
  });
});

describe('initSession', () => {
  // initSession runs once per page, so each test loads fresh copies of the stores.
  async function freshStores() {
    vi.resetModules();
    return { session: await import('./session'), modals: await import('./modals') };
  }

  it('on the next page, loads the user and runs the deferred after-login steps once', async () => {
    const result = await signIn(t, 'later@example.com');
    await completeLogin(result, { deferred: true });
    history.replaceState(null, '', '/playground/speech');
    const { session, modals } = await freshStores();
    session.initSession();
    await vi.waitFor(() => expect(modals.$modal.get()).toBe('info'));
    expect(session.$user.get()?.userId).toBe(result.userId);
    expect(sessionStorage.getItem('afterLoginPending')).toBeNull();
  });

  it('on the root page, which navigates on at once, keeps them pending', async () => {
    await completeLogin(await signIn(t, 'later@example.com'), { deferred: true });
    const { session, modals } = await freshStores();
    session.initSession();
    await vi.waitFor(() => expect(session.$user.get()).toBeTruthy());
    await vi.waitFor(() => expect(calls().filter((c) => c === '/user/info')).toHaveLength(1));
    expect(modals.$modal.get()).toBeNull();
    expect(sessionStorage.getItem('afterLoginPending')).toBe('1');
  });

  it('remembers where the visitor came from', async () => {
    history.replaceState(null, '', '/pricing?from=newsletter');
    const { session } = await freshStores();
    session.initSession();
    await vi.waitFor(() => expect(session.$user.get()).toBeNull());
    expect(getCookie(COOKIE_NAMES.from)).toBe('newsletter');
  });
});

describe('refreshUser', () => {
  it('answers a guest without asking the server when no token is stored', async () => {
    expect(await refreshUser()).toBeNull();
    expect($user.get()).toBeNull();
    expect(calls()).toEqual([]);
  });

  it('forgets a refused token (40001): the user and the stored tokens are gone', async () => {
    $user.set({ userId: 'someone' } as never);
    $apiKey.set('stale');
    localStorage.setItem(STORAGE_KEYS.userToken, 'not-a-session');
    localStorage.setItem(STORAGE_KEYS.userId, 'someone');
    expect(await refreshUser()).toBeNull();
    expect($user.get()).toBeNull();
    expect($apiKey.get()).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.userToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.userId)).toBeNull();
  });

  it('keeps the user it knew when the network fails, and says guest when it knew nothing', async () => {
    localStorage.setItem(STORAGE_KEYS.userToken, 'some-token');
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    expect(await refreshUser()).toBeNull();
    expect($user.get()).toBeNull();
    $user.set({ userId: 'known' } as never);
    expect(await refreshUser()).toBeNull();
    expect($user.get()?.userId).toBe('known');
    expect(localStorage.getItem(STORAGE_KEYS.userToken)).toBe('some-token');
  });

  it('any call answered 40001 signs the user out of the store', async () => {
    $user.set({ userId: 'someone' } as never);
    $apiKey.set('key');
    localStorage.setItem(STORAGE_KEYS.userToken, 'expired');
    await expect(accountsApi.history(1, 10)).rejects.toMatchObject({ code: 40001 });
    expect($user.get()).toBeNull();
    expect($apiKey.get()).toBeNull();
  });

  it('on a 40001 answer clears the stored tokens and saves the countryCode it carries (SPEC.md §8)', async () => {
    for (const key of [STORAGE_KEYS.userToken, STORAGE_KEYS.userKey, STORAGE_KEYS.userId]) localStorage.setItem(key, 'stale');
    vi.stubGlobal('fetch', async () => Response.json({ code: 40001, msg: 'User Not Login', data: { countryCode: 'DE' } }));
    await expect(accountsApi.history(1, 10)).rejects.toMatchObject({ message: MESSAGES.notLoggedIn, code: 40001 });
    expect([STORAGE_KEYS.userToken, STORAGE_KEYS.userKey, STORAGE_KEYS.userId].map((key) => localStorage.getItem(key))).toEqual([null, null, null]);
    expect(localStorage.getItem(STORAGE_KEYS.countryCode)).toBe('DE');
  });
});

describe('logout', () => {
  it('ends the server session and clears user, tokens, cookie and modals', async () => {
    const result = await signIn(t);
    await completeLogin(result);
    expect($modal.get()).toBe('info');
    expect(await logout()).toBe(true);
    const info = await post(t.app, '/user/info', {}, { token: result.token });
    expect(info.body.code).toBe(40001);
    expect($user.get()).toBeNull();
    expect($apiKey.get()).toBeNull();
    expect($modal.get()).toBeNull();
    for (const key of [STORAGE_KEYS.userToken, STORAGE_KEYS.userKey, STORAGE_KEYS.userId]) expect(localStorage.getItem(key)).toBeNull();
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
    await completeLogin(await signIn(t, 'first@example.com'));
    history.replaceState(null, '', '/pricing');
    await logout();
    expect(assign).not.toHaveBeenCalled();
    await completeLogin(await signIn(t, 'second@example.com'));
    history.replaceState(null, '', '/dashboard/key');
    await logout();
    expect(assign).toHaveBeenCalledWith('/');
  });

  it('says Failed and keeps the user when the server cannot be reached', async () => {
    await completeLogin(await signIn(t));
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

    const sent = await post(t.app, '/user/code', { email: 'fresh@example.com', type: 'login' });
    await loginWithCode('fresh@example.com', t.mail.at(-1)!.code, sent.body.data.attemptId);
    expect($user.get()?.userEmail).toBe('fresh@example.com');
    const row = await t.database.db.selectFrom('users').select(['referer', 'referer_url']).where('email', '=', 'fresh@example.com').executeTakeFirstOrThrow();
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
