// Shared e2e steps: wait for islands to hydrate, and sign in through the login modal with a mailed code.
import { expect, type Page } from '@playwright/test';
import type { Mailbox } from './mailbox';

export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
}

/** Signs a new or returning user in from the current page and dismisses the first-login company form. */
export async function signInByMail(page: Page, mailbox: Mailbox, email: string): Promise<void> {
  await hydrated(page);
  await page.getByRole('button', { name: 'Log In' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log in or sign up' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  const code = await mailbox.nextCode(email);
  await page.getByLabel('Digit 1').focus();
  await page.keyboard.type(code);
  const info = page.getByRole('dialog', { name: 'Tell us about you' });
  await expect(info).toBeVisible();
  await info.getByRole('button', { name: 'Skip' }).click();
  await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible();
}
