// @vitest-environment happy-dom Once per page, initSignedIn loads the user of a stored token and runs after-login steps
// a sign-in left pending (SPEC.md §4); each test loads fresh copies of the stores, so it has a file of its own (fresh
// modules never leak into other tests).
import { describe, expect, it, vi } from 'vitest';
import { signIn } from '../../../server/test-support/accounts';
import { COOKIE_NAMES } from '../product-rules';
import { completeLogin } from './login';
import { useSessionServer } from './signed-in.fixtures';
import { getCookie } from '../storage';

const server = useSessionServer();

describe('initSignedIn', () => {
  // initSignedIn runs once per page, so each test loads fresh copies of the stores.
  async function freshStores() {
    vi.resetModules();
    return {
      session: await import('./signed-in'),
      start: await import('./signed-in-start'),
      modals: await import('./modals'),
    };
  }

  it('on the next page, loads the user and runs the deferred after-login steps once', async () => {
    const result = await signIn(server.t, 'later@example.com');
    await completeLogin(result, { deferred: true });
    history.replaceState(null, '', '/playground/speech');
    const { session, start, modals } = await freshStores();
    start.initSignedIn();
    await vi.waitFor(() => expect(modals.$modal.get()).toBe('info'));
    expect(session.$user.get()?.userId).toBe(result.userId);
    expect(sessionStorage.getItem('afterLoginPending')).toBeNull();
  });

  it('on the root page, which navigates on at once, keeps them pending', async () => {
    await completeLogin(await signIn(server.t, 'later@example.com'), { deferred: true });
    const { session, start, modals } = await freshStores();
    start.initSignedIn();
    await vi.waitFor(() => expect(session.$user.get()).toBeTruthy());
    await vi.waitFor(() => expect(server.calls().filter((c) => c === '/user/info')).toHaveLength(1));
    expect(modals.$modal.get()).toBeNull();
    expect(sessionStorage.getItem('afterLoginPending')).toBe('1');
  });

  it('remembers where the visitor came from', async () => {
    history.replaceState(null, '', '/pricing?from=newsletter');
    const { session, start } = await freshStores();
    start.initSignedIn();
    await vi.waitFor(() => expect(session.$user.get()).toBeNull());
    expect(getCookie(COOKIE_NAMES.from)).toBe('newsletter');
  });
});
