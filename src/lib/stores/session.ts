// The signed-in user shared by every island (SPEC.md §3 storage keys and cookies, §4 session, login and logout).
import { atom, computed } from 'nanostores';
import { accountsApi, ApiError, onNotLoggedIn, type Attribution, type LoginResult, type UserInfo } from '../api';
import { COOKIE_NAMES, COOKIES, MESSAGES, MODALS, STORAGE_KEYS } from '../spec';
import { openModal, resetModals, showToast } from './modals';
import { deleteCookie, getCookie, local, session, setCookie } from '../storage';

/** Set when a sign-in finishes on a page that navigates away at once (the OAuth callback on /). */
const AFTER_LOGIN_PENDING = 'afterLoginPending';

/** undefined while unknown (before the first check), null for a guest. */
export const $user = atom<UserInfo | null | undefined>(undefined);
export const $apiKey = atom<string | null>(null);
/** SPEC.md §4: logged in means a userId is present. */
export const $loggedIn = computed($user, (user) => Boolean(user?.userId));

export function storedUserId(): string | null {
  return local.get(STORAGE_KEYS.userId) ?? COOKIE_NAMES.userIdAlt.map(getCookie).find(Boolean) ?? null;
}

function clearStoredTokens(): void {
  local.remove(STORAGE_KEYS.userToken);
  local.remove(STORAGE_KEYS.userKey);
  local.remove(STORAGE_KEYS.userId);
}

function forget(): void {
  clearStoredTokens();
  deleteCookie(COOKIE_NAMES.userId);
  $user.set(null);
  $apiKey.set(null);
}

// SPEC.md §8 40001, from any call: stored tokens are cleared and countryCode is saved before the call rejects.
onNotLoggedIn(({ countryCode }) => {
  clearStoredTokens();
  if (countryCode) local.set(STORAGE_KEYS.countryCode, countryCode);
  $user.set(null);
  $apiKey.set(null);
});

/** SPEC.md §3 `from` (1-day cookie and local key) and refererUrl: where a visitor came from, sent at sign-in. */
export function rememberArrival(): void {
  const from = new URLSearchParams(location.search).get('from');
  if (from) {
    setCookie(COOKIE_NAMES.from, from, COOKIES.fromDays);
    local.set(STORAGE_KEYS.from, from);
  }
  if (document.referrer && !document.referrer.startsWith(location.origin) && !local.get(STORAGE_KEYS.refererUrl)) {
    local.set(STORAGE_KEYS.refererUrl, document.referrer);
  }
}

export function attribution(): Attribution {
  return {
    referer: getCookie(COOKIE_NAMES.from) ?? local.get(STORAGE_KEYS.from) ?? '',
    refererUrl: local.get(STORAGE_KEYS.refererUrl) ?? '',
  };
}

function readList(key: string): string[] {
  try {
    const parsed: unknown = JSON.parse(local.get(key) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** SPEC.md §4 "After login": key, suspension modal (first, when suspended), information modal once per user, bind-email prompt. */
async function afterLogin(user: UserInfo): Promise<void> {
  try {
    const { key } = await accountsApi.apiKey(user.userId);
    local.set(STORAGE_KEYS.userKey, key);
    $apiKey.set(key);
  } catch {
    // The key is fetched again when the dashboard's Key tab opens; the session itself is fine.
  }
  // A suspended account learns that first; the information modal and the rest queue behind it (openModal keeps order).
  if (user.valid) openModal('suspension');
  const seen = readList(STORAGE_KEYS.hasRead);
  if (!seen.includes(user.userId)) {
    local.set(STORAGE_KEYS.hasRead, JSON.stringify([...seen, user.userId]));
    if (!user.company) openModal('info');
  }
  if (!user.userEmail) {
    const last = Number(local.get(STORAGE_KEYS.bindEmailTime) ?? 0);
    if (Date.now() - last >= MODALS.bindEmailIntervalMs) {
      local.set(STORAGE_KEYS.bindEmailTime, String(Date.now()));
      openModal('bindEmail');
    }
  }
}

/** Reads the user for a stored token; a guest when there is none or it was refused. */
export async function refreshUser(): Promise<UserInfo | null> {
  if (!local.get(STORAGE_KEYS.userToken) && !local.get(STORAGE_KEYS.userKey)) {
    $user.set(null);
    return null;
  }
  try {
    const user = await accountsApi.info();
    $user.set(user);
    const key = local.get(STORAGE_KEYS.userKey);
    if (key) $apiKey.set(key);
    return user;
  } catch (error) {
    if (error instanceof ApiError && error.code === 40001) return null;
    // A network failure keeps what we knew; the next call will tell.
    if ($user.get() === undefined) $user.set(null);
    return null;
  }
}

let started = false;

/** Once per page: remember where the visitor came from and load the user of a stored token. */
export function initSession(): void {
  if (started) return;
  started = true;
  rememberArrival();
  void refreshUser().then(async (user) => {
    // The root page always navigates on (SPEC.md §2, §4), so the deferred steps wait for the next page.
    if (!user || !session.get(AFTER_LOGIN_PENDING) || location.pathname === '/') return;
    session.remove(AFTER_LOGIN_PENDING);
    await afterLogin(user);
  });
}

/**
 * Stores a fresh session (email login or OAuth) and runs the §4 after-login steps, or, with `deferred`,
 * leaves them to the next page, where its modals can actually be seen.
 */
export async function completeLogin(result: LoginResult, options: { deferred?: boolean } = {}): Promise<UserInfo | null> {
  local.set(STORAGE_KEYS.userToken, result.token);
  local.set(STORAGE_KEYS.userId, result.userId);
  setCookie(COOKIE_NAMES.userId, result.userId, COOKIES.userIdDays);
  if (options.deferred) {
    session.set(AFTER_LOGIN_PENDING, '1');
    return null;
  }
  const user = await refreshUser();
  if (user) await afterLogin(user);
  return user;
}

export async function loginWithCode(email: string, code: string, attemptId: string): Promise<void> {
  const result = await accountsApi.emailLogin(email, code, attemptId, attribution());
  await completeLogin(result);
}

/** SPEC.md §4 Logout: clears the user and tokens; on the dashboard the user is sent to /. A failure says 'Failed'. */
export async function logout(): Promise<boolean> {
  try {
    await accountsApi.logout();
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 40001)) {
      showToast(MESSAGES.failed, 'error');
      return false;
    }
  }
  forget();
  resetModals();
  if (location.pathname.startsWith('/dashboard')) location.assign('/');
  return true;
}

