// The signed-in user shared by every island (SPEC.md §3 storage keys and cookies, §4 session). Every page loads this
// first, so it holds only what a page needs to know who is there: the API client loads once there is a stored session
// to ask about (a guest's page never needs it), signing in and out live in login.ts, loaded with them, and the page's
// start in signed-in-start.ts.
import { atom, type ReadableAtom } from 'nanostores';
import { onNotLoggedIn, type UserInfo } from '../api';
import type * as ApiModuleType from '../api';
import { COOKIE_NAMES, COOKIES, STORAGE_KEYS } from '../product-rules';
import { getCookie, local, setCookie } from '../storage';

type ApiModule = typeof ApiModuleType;

/** Set when a sign-in finishes on a page that navigates away at once (the OAuth callback on /). */
export const AFTER_LOGIN_PENDING = 'afterLoginPending';

/** undefined while unknown (before the first check), null for a guest. */
export const $user = atom<UserInfo | null | undefined>(undefined);
export const $apiKey = atom<string | null>(null);
const loggedIn = atom(false);
/**
 * SPEC.md §4: logged in means a userId is present. Kept in step by a subscription rather than computed(), whose code
 * every page would otherwise load with the shell.
 */
export const $loggedIn: ReadableAtom<boolean> = loggedIn;
$user.subscribe((user) => loggedIn.set(Boolean(user?.userId)));

export function storedUserId(): string | null {
  return local.get(STORAGE_KEYS.userId) ?? COOKIE_NAMES.userIdAlt.map(getCookie).find(Boolean) ?? null;
}

export function clearStoredTokens(): void {
  local.remove(STORAGE_KEYS.userToken);
  local.remove(STORAGE_KEYS.userKey);
  local.remove(STORAGE_KEYS.userId);
}

// SPEC.md §8 40001, from any call: stored tokens are cleared and countryCode is saved before the call rejects.
onNotLoggedIn(({ countryCode }) => {
  clearStoredTokens();
  if (countryCode) local.set(STORAGE_KEYS.countryCode, countryCode);
  $user.set(null);
  $apiKey.set(null);
});

/**
 * The API client, loaded on first need: a guest's page never makes a call at load
 * (src/lib/product-rules/page-budgets.ts).
 */
export function loadApi(): Promise<ApiModule> {
  return import('../api');
}

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

/** Reads the user for a stored token; a guest when there is none or it was refused. */
export async function refreshUser(): Promise<UserInfo | null> {
  if (!local.get(STORAGE_KEYS.userToken) && !local.get(STORAGE_KEYS.userKey)) {
    $user.set(null);
    return null;
  }
  const { accountsApi, ApiError } = await loadApi();
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
