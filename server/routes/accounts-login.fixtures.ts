// Shared set-up of the email sign-in tests (accounts-login*.test.ts): the code and link a request mails, and the calls
// that ask for a code and answer it.
import { expect } from 'vitest';
import { LOGIN_LINK } from '../../src/lib/product-rules';
import { post, type ReopenableAccountsTestApp } from '../test-support/accounts';

/** A code off by one digit: a wrong guess. */
export const wrong = (code: string) => String((Number(code) + 1) % 10000).padStart(4, '0');
/** Headers of a request from `ip` behind the trusted proxy. */
export const from = (ip: string) => ({ 'x-forwarded-for': ip });

/** The sign-in calls on the test's app `t` (from useAccountsTestApp), reading what its mailbox got. */
export function mailSignIn(t: ReopenableAccountsTestApp) {
  const lastMail = (email: string) => t.mail.filter((m) => m.email === email).at(-1)!;
  const lastCode = (email: string) => lastMail(email).code;
  const linkToken = (email: string) => new URL(lastMail(email).link).searchParams.get(LOGIN_LINK.queryParam)!;

  /** Asks for a code and answers what the browser and the mailbox each got. */
  async function requestCode(email: string, headers: Record<string, string> = {}) {
    const sent = await post(t.app, '/user/code', { email, type: 'login' }, headers);
    expect(sent.body.code).toBe(0);
    return { attemptId: sent.body.data.attemptId as string, code: lastCode(email), link: linkToken(email) };
  }
  const login = (email: string, code: string, attemptId: string, headers: Record<string, string> = {}) =>
    post(t.app, '/user/email/login', { email, code, attemptId }, headers);

  return { lastCode, linkToken, requestCode, login };
}
