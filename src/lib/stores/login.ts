// Signing in and out (SPEC.md §4 login, "After login", logout): loaded with the login modal, the sign-in link or OAuth
// callback and the Log out item, never on a page's first load (src/lib/spec/page-budgets.ts).
import { accountsApi, ApiError, type Attribution, type LoginResult, type UserInfo } from '../api';
import { COOKIE_NAMES, COOKIES, MESSAGES, MODALS, STORAGE_KEYS } from '../spec';
import { openModal, resetModals, showToast } from './modals';
import { $apiKey, $user, AFTER_LOGIN_PENDING, clearStoredTokens, refreshUser } from './session';
import { deleteCookie, getCookie, local, session, setCookie } from '../storage';

function readList(key: string): string[] {
  try {
    const parsed: unknown = JSON.parse(local.get(key) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function attribution(): Attribution {
  return {
    referer: getCookie(COOKIE_NAMES.from) ?? local.get(STORAGE_KEYS.from) ?? '',
    refererUrl: local.get(STORAGE_KEYS.refererUrl) ?? '',
  };
}

/** SPEC.md §4 "After login": key, suspension modal (first, when suspended), information modal once per user, bind-email prompt. */
export async function afterLogin(user: UserInfo): Promise<void> {
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
  clearStoredTokens();
  deleteCookie(COOKIE_NAMES.userId);
  $user.set(null);
  $apiKey.set(null);
  resetModals();
  if (location.pathname.startsWith('/dashboard')) location.assign('/');
  return true;
}
