// Shared e2e steps: wait for islands to hydrate, and sign in through the login modal with a mailed code or the mailed
// link.
import { expect, type Locator, type Page } from '@playwright/test';
import { TOASTS } from '../../../src/lib/product-rules';
import type { Mailbox } from './mailbox';
import { testNetwork } from './test-network';

export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
}

/** Opens the login modal from the current page once its islands have hydrated; answers the dialog. */
export async function openLogin(page: Page): Promise<Locator> {
  await hydrated(page);
  await page.getByRole('button', { name: 'Log In' }).click();
  return page.getByRole('dialog', { name: 'Log in or sign up' });
}

/** In the open login modal: asks for a code by mail, then types the mailed code. */
export async function enterMailedCode(page: Page, mailbox: Mailbox, email: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Log in or sign up' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(TOASTS.codeSent)).toBeVisible();
  const code = await mailbox.nextCode(email);
  // Type digit by digit: each box takes one character and moves on; the 4th submits by itself.
  await page.getByLabel('Digit 1').focus();
  await page.keyboard.type(code);
}

/** Dismisses the first-login "Tell us about you" modal with Skip. */
export async function skipAboutYou(page: Page): Promise<void> {
  const info = page.getByRole('dialog', { name: 'Tell us about you' });
  await expect(info).toBeVisible();
  await info.getByRole('button', { name: 'Skip' }).click();
  await expect(info).toBeHidden();
}

/** Signs a new or returning user in from the current page and dismisses the first-login company form. */
export async function signInByMail(page: Page, mailbox: Mailbox, email: string): Promise<void> {
  // From a network of its own, so the suite's many sign-ins stay under the per-network hourly cap on codes.
  await page.setExtraHTTPHeaders(testNetwork());
  await openLogin(page);
  await enterMailedCode(page, mailbox, email);
  await skipAboutYou(page);
  await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible();
}

/** Opens a mailed one-time sign-in link: the root page signs in with it and goes on to the playground. */
export async function openSignInLink(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.waitForURL(/\/playground/);
  await skipAboutYou(page);
  await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible();
}
