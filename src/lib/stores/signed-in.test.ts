// @vitest-environment happy-dom
// The session store against the real accounts server: loading the user of a stored token, and 40001 forgetting.
import { describe, expect, it, vi } from 'vitest';
import { accountsApi } from '../api';
import { MESSAGES, STORAGE_KEYS } from '../product-rules';
import { $apiKey, $user, refreshUser } from './signed-in';
import { useSessionServer } from './signed-in.fixtures';

const server = useSessionServer();

describe('refreshUser', () => {
  it('answers a guest without asking the server when no token is stored', async () => {
    expect(await refreshUser()).toBeNull();
    expect($user.get()).toBeNull();
    expect(server.calls()).toEqual([]);
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
    for (const key of [STORAGE_KEYS.userToken, STORAGE_KEYS.userKey, STORAGE_KEYS.userId])
      localStorage.setItem(key, 'stale');
    vi.stubGlobal('fetch', async () =>
      Response.json({ code: 40001, msg: 'User Not Login', data: { countryCode: 'DE' } }),
    );
    await expect(accountsApi.history(1, 10)).rejects.toMatchObject({ message: MESSAGES.notLoggedIn, code: 40001 });
    expect(
      [STORAGE_KEYS.userToken, STORAGE_KEYS.userKey, STORAGE_KEYS.userId].map((key) => localStorage.getItem(key)),
    ).toEqual([null, null, null]);
    expect(localStorage.getItem(STORAGE_KEYS.countryCode)).toBe('DE');
  });
});
