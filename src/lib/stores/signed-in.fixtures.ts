// Shared set-up of the session and login store tests: the real accounts server on in-memory SQLite answers the
// stores' calls, and every test starts from an empty browser (storage, cookies, stores, address).
import { afterEach, beforeEach, vi } from 'vitest';
import { createAccountsTestApp, type AccountsTestApp } from '../../../server/test-support/accounts';
import { routeBrowserTo, type RoutedBrowser } from '../../../server/test-support/browser';
import { $modal, $toast, closeModal, resetModals } from './modals';
import { $apiKey, $user } from './signed-in';

export interface SessionServer {
  readonly t: AccountsTestApp;
  /** Paths the stores asked the server for, in order. */
  calls(): string[];
}

/** Registers the hooks that start a fresh server before each test and clean the browser after it. */
export function useSessionServer(): SessionServer {
  let t: AccountsTestApp;
  let net: RoutedBrowser;
  beforeEach(async () => {
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
  return {
    get t() {
      return t;
    },
    calls: () => net.sent.map((r) => r.path),
  };
}

/** The modals in the order they would be seen, closing each. */
export function modalsSeen(): string[] {
  const seen: string[] = [];
  while ($modal.get()) {
    seen.push($modal.get()!);
    closeModal();
  }
  return seen;
}
