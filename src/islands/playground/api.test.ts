// The playground's calls go through the product API client on the real server: a stale session signs out (SPEC.md §8
// 40001) on every call.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeBrowserTo, type RoutedBrowser } from '../../../server/test-support/browser';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../../../server/test-support/tasks';
import type { UserInfo } from '../../lib/api';
import { API_CODES, FEATURES, MESSAGES, STORAGE_KEYS } from '../../lib/product-rules';
import { $user } from '../../lib/stores/signed-in';
import { playgroundApi, uploadFile } from './api';

let t: TasksTestApp;
let user: TestUser;
let net: RoutedBrowser;

beforeEach(async () => {
  t = await createTasksTestApp();
  user = await createUser(t, 0);
  net = routeBrowserTo(t.app);
  localStorage.setItem(STORAGE_KEYS.userToken, user.token);
  $user.set({ userId: user.id } as UserInfo);
});
afterEach(async () => {
  vi.unstubAllGlobals();
  localStorage.clear();
  $user.set(undefined);
  await t.close();
});

/** The session the browser holds is no longer the server's (signed out elsewhere, expired). */
function staleSession() {
  localStorage.setItem(STORAGE_KEYS.userToken, 'stale-token');
}

const signedOut = () => $user.get() === null && localStorage.getItem(STORAGE_KEYS.userToken) === null;

describe('playground calls', () => {
  it('GET features sends the session token and no body, and answers the list', async () => {
    const list = await playgroundApi.features();
    expect(list.map((f) => f.feature).sort()).toEqual([...FEATURES].sort());
    const sent = net.sent.find((r) => r.path === '/api-playground/task/v1/features')!;
    expect(sent.method).toBe('GET');
    expect(sent.headers.token).toBe(user.token);
    expect(sent.body).toBeNull();
  });

  it('a GET with a stale session rejects with 40001 and signs out, as every other call does', async () => {
    staleSession();
    await expect(playgroundApi.models()).rejects.toMatchObject({
      message: MESSAGES.notLoggedIn,
      code: API_CODES.notLoggedIn,
    });
    expect(signedOut()).toBe(true);
  });

  it('GET features is public: it answers with a stale session or none, and signs no one out', async () => {
    staleSession();
    expect((await playgroundApi.features()).map((f) => f.feature).sort()).toEqual([...FEATURES].sort());
    expect(signedOut()).toBe(false);
  });

  it('an upload with a stale session rejects with 40001 and signs out', async () => {
    staleSession();
    await expect(uploadFile(new Blob(['x'], { type: 'image/png' }), 'image', () => {}, 'a.png')).rejects.toMatchObject({
      message: MESSAGES.notLoggedIn,
      code: API_CODES.notLoggedIn,
    });
    expect(signedOut()).toBe(true);
  });
});
