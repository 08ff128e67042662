// Builds the app on in-memory SQLite with a mailer that records login codes, plus helpers that sign a user in.
import { afterEach, beforeEach, vi } from 'vitest';
import type { Mailer } from '../accounts';
import { createTestApp, type TestApp } from './app';

export interface AccountsTestApp extends TestApp {
  /** Codes and sign-in links mailed so far, newest last. */
  mail: Array<{ email: string; code: string; link: string }>;
  /** Makes the next sends fail, as an unreachable mail server would. */
  failMail: { on: boolean };
}

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123';

export async function createAccountsTestApp(env: Record<string, string> = {}): Promise<AccountsTestApp> {
  const mail: AccountsTestApp['mail'] = [];
  const failMail = { on: false };
  const mailer: Mailer = {
    async sendLoginCode(email, { code, link }) {
      if (failMail.on) throw new Error('connect ECONNREFUSED');
      mail.push({ email, code, link });
    },
  };
  const t = await createTestApp({ SECRET_KEY: TEST_SECRET, ...env }, { mailer });
  return { ...t, mail, failMail };
}

export type ReopenableAccountsTestApp = AccountsTestApp & { reopen(env: Record<string, string>): Promise<void> };

/**
 * A fresh app before each test of the file, closed after it (fake timers are undone first). The answered object is
 * refilled for every test; `reopen` swaps the test's app for one with other settings.
 */
export function useAccountsTestApp(env: () => Record<string, string> = () => ({})): ReopenableAccountsTestApp {
  const t = {
    async reopen(other) {
      await t.close();
      Object.assign(t, await createAccountsTestApp(other));
    },
  } as ReopenableAccountsTestApp;
  beforeEach(async () => {
    Object.assign(t, await createAccountsTestApp(env()));
  });
  afterEach(async () => {
    vi.useRealTimers();
    await t.close();
  });
  return t;
}

type Body = Record<string, string | number | undefined>;

/** POSTs a form-encoded body (SPEC.md §7 default) and returns status and envelope. */
export async function post(
  app: AccountsTestApp['app'],
  path: string,
  body: Body = {},
  headers: Record<string, string> = {},
) {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) if (v !== undefined) form.set(k, String(v));
  const res = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: form.toString(),
  });
  return {
    status: res.status,
    headers: res.headers,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    body: (await res.json()) as { code: number; msg: string; data: any },
  };
}

export { postJson } from './post-json';

/** Signs in by email code and returns the session token and user id. */
export async function signIn(
  t: AccountsTestApp,
  email = 'person@example.com',
): Promise<{ token: string; userId: string }> {
  const sent = await post(t.app, '/user/code', { email, type: 'login' });
  if (sent.body.code !== 0) throw new Error(`code not sent: ${sent.body.msg}`);
  const code = t.mail.filter((m) => m.email === email).at(-1)!.code;
  const login = await post(t.app, '/user/email/login', { email, code, attemptId: sent.body.data.attemptId });
  if (login.body.code !== 0) throw new Error(`login failed: ${login.body.msg}`);
  return login.body.data as { token: string; userId: string };
}
