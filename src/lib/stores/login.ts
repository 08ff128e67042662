// Signing in and out (SPEC.md §4 login, "After login", logout): loaded with the login modal, the sign-in link or OAuth
// callback and the Log out item, never on a page's first load (src/lib/product-rules/page-budgets.ts).
import { accountsApi, ApiError, type Attribution, type LoginResult, type UserInfo } from '../api';
import { COOKIE_NAMES, COOKIES, MESSAGES, MODALS, STORAGE_KEYS } from '../product-rules';
import { openModal, resetModals, showToast } from './modals';
import { $apiKey, $user, AFTER_LOGIN_PENDING, clearStoredTokens, refreshUser } from './signed-in';
import { deleteCookie, getCookie, local, session, setCookie } from '../storage';

export function attribution(): Attribution {
  return {
    referer: getCookie(COOKIE_NAMES.from) ?? local.get(STORAGE_KEYS.from) ?? '',
    refererUrl: local.get(STORAGE_KEYS.refererUrl) ?? '',
  };
}

/**
 * SPEC.md §4 "After login": the key, then the suspension notice first (when suspended), the information modal once per
 * account (the server remembers it was asked, so another browser does not ask again), then the bind-email prompt.
 */
export async function afterLogin(user: UserInfo): Promise<void> {
  try {
    const { key } = await accountsApi.apiKey(user.userId);
    local.set(STORAGE_KEYS.userKey, key);
    $apiKey.set(key);
  } catch {
    // The key is fetched again when the dashboard's Key tab opens; the session itself is fine.
  }
  // openModal keeps order: what follows queues behind the suspension notice.
  if (user.valid) openModal('suspension');
  if (!user.infoAsked) {
    if (!user.company) openModal('info');
    try {
      await accountsApi.infoAsked();
      const current = $user.get();
      if (current?.userId === user.userId) $user.set({ ...current, infoAsked: true });
    } catch {
      // Not remembered this time: the form may be offered once more at the next sign-in, which is harmless.
    }
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
export async function completeLogin(
  result: LoginResult,
  options: { deferred?: boolean } = {},
): Promise<UserInfo | null> {
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
