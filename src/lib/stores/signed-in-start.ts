// Starts the signed-in state once per page (SPEC.md §4): remembers where the visitor came from, loads the user of a
// stored token and runs the after-login steps a sign-in left pending, with login.ts loaded only then.
import { session } from '../storage';
import { AFTER_LOGIN_PENDING, refreshUser, rememberArrival } from './signed-in';

let started = false;

/** Once per page: remember where the visitor came from and load the user of a stored token. */
export function initSignedIn(): void {
  if (started) return;
  started = true;
  rememberArrival();
  void refreshUser().then(async (user) => {
    // The root page always navigates on (SPEC.md §2, §4), so the deferred steps wait for the next page.
    if (!user || !session.get(AFTER_LOGIN_PENDING) || location.pathname === '/') return;
    session.remove(AFTER_LOGIN_PENDING);
    const { afterLogin } = await import('./login');
    await afterLogin(user);
  });
}
