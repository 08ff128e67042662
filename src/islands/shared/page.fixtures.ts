// Test-only: the page side of an island test: signed in against a real app in-process, and reset after (playground
// screens, dashboard, history).
import { cleanup } from '@testing-library/react';
import { vi } from 'vitest';
import { routeBrowserTo, type RoutedBrowser } from '../../../server/test-support/browser';
import type { TasksTestApp, TestUser } from '../../../server/test-support/tasks';
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
