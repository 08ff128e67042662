// Test-only: for each test a fresh app on the ok/bad test engines and a user with credits, closed after the test, and
// JSON posts to that app as the user.
import { afterEach, beforeEach } from 'vitest';
import { postJson, type Envelope } from './post-json';
import { createOkBadTestApp, createUser, type TasksTestApp, type TestUser } from './tasks';

export interface AppAndUser {
  t: TasksTestApp;
  user: TestUser;
  /** POSTs JSON to the app, signed in as the user unless `headers` say otherwise. */
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; body: Envelope }>;
}

/** Registers the set-up and clean-up on the calling block; the fields are filled in anew for every test. */
export function appAndUserEachTest(credits: number): AppAndUser {
  const fresh = {
    post: (path, body, headers = { token: fresh.user.token }) => postJson(fresh.t.app, path, body, headers),
  } as AppAndUser;
  beforeEach(async () => {
    fresh.t = await createOkBadTestApp();
    fresh.user = await createUser(fresh.t, credits);
  });
  afterEach(() => fresh.t.close());
  return fresh;
}
