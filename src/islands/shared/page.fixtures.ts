// Test-only: the page side of an island test: signed in against a real app in-process, and reset after (playground
// screens, dashboard, history).
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { routeBrowserTo, type RoutedBrowser } from '../../../server/test-support/browser';
import { postJson } from '../../../server/test-support/post-json';
import { createOkBadTestApp, createUser, type TasksTestApp, type TestUser } from '../../../server/test-support/tasks';
import { STORAGE_KEYS } from '../../lib/product-rules';
import { $user, refreshUser } from '../../lib/stores/signed-in';

/** Routes the page's requests to the app and signs the page in as `user` (stored token, then /user/info). */
export async function signInPage(t: TasksTestApp, user: TestUser): Promise<RoutedBrowser> {
  const net = routeBrowserTo(t.app);
  localStorage.setItem(STORAGE_KEYS.userToken, user.token);
  await refreshUser();
  return net;
}

/** Unmounts, forgets the page's storage and session, and closes the app. */
export async function resetPage(t: TasksTestApp): Promise<void> {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
  $user.set(undefined);
  await t.close();
}

export interface SignedInPage {
  t: TasksTestApp;
  user: TestUser;
  net: RoutedBrowser;
}

/**
 * Before each test a fresh app (the ok/bad engines unless `makeApp` says otherwise), a user with `credits` and the page
 * signed in as them; after each, the page reset. The fields are filled in anew for every test.
 */
export function signedInPageEachTest(
  credits: number,
  makeApp: () => Promise<TasksTestApp> = () => createOkBadTestApp(),
): SignedInPage {
  const page = {} as SignedInPage;
  beforeEach(async () => {
    page.t = await makeApp();
    page.user = await createUser(page.t, credits);
    page.net = await signInPage(page.t, page.user);
  });
  afterEach(() => resetPage(page.t));
  return page;
}

/** POSTs JSON to the page's app as its user (or with other headers) and answers the envelope's data. */
export async function postData(
  page: SignedInPage,
  path: string,
  body: unknown,
  headers: Record<string, string> = { token: page.user.token },
) {
  return (await postJson(page.t.app, path, body, headers)).body.data;
}
