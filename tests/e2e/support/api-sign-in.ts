// Signing a new user in through the real email-code calls (no modal), for specs whose subject comes after sign-in.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { STORAGE_KEYS } from '../../../src/lib/product-rules';
import { admin } from './admin';
import type { Mailbox } from './mailbox';
import { testNetwork } from './test-network';

/** A product API call (form-encoded, SPEC.md §7) returning its data. */
export async function callApi(
  request: APIRequestContext,
  route: string,
  form: Record<string, string>,
  token?: string,
  headers: Record<string, string> = {},
) {
  const res = await request.post(route, { form, headers: { ...headers, ...(token ? { token } : {}) } });
  const body = (await res.json()) as { code: number; msg: string; data: Record<string, string> };
  expect(body.code, `${route}: ${body.msg}`).toBe(0);
  return body.data;
}

/**
 * Signs a new user in (the code from the local SMTP server), fills the company form so no first-login modal covers
 * the page, grants credits, and stores the session in the page as the site does. Returns the session token.
 */
export async function signInThroughApi(
  page: Page,
  request: APIRequestContext,
  mailbox: Mailbox,
  name: string,
  credits = 100,
): Promise<string> {
  const email = `${name}-${Date.now()}@first-user.test`;
  const { attemptId } = await callApi(request, '/user/code', { email, type: 'login' }, undefined, testNetwork());
  const { token, userId } = await callApi(request, '/user/email/login', {
    email,
    code: await mailbox.nextCode(email),
    attemptId: attemptId!,
  });
  await callApi(request, '/user/infoUpdate', { company: 'First User Ltd', channel: '' }, token);
  admin('grant', email, String(credits));
  await storeSession(page, token!, userId!);
  return token!;
}

/** Stores a signed-in session in the page before its scripts run, as the site does after sign-in. */
export async function storeSession(page: Page, token: string, userId: string): Promise<void> {
  const stored = {
    [STORAGE_KEYS.userToken]: token,
    [STORAGE_KEYS.userId]: userId,
    [STORAGE_KEYS.hasRead]: JSON.stringify([userId]),
  };
  await page.addInitScript((items) => {
    for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
  }, stored);
}
