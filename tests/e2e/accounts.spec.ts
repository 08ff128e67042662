// Accounts end to end: sign in with a mailed code, see credits, redeem an invitation, copy the key, log out.
import { expect, test } from '@playwright/test';
import { useMailbox } from './support/mailbox';
import { enterMailedCode, hydrated, openLogin, skipAboutYou } from './support/sign-in';
import { admin } from './support/admin';
import { TOASTS } from '../../src/lib/product-rules';

const mailbox = useMailbox();

test('sign in with an emailed code, see credits, redeem an invitation, copy the key and log out', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const invitation = `E2E${Date.now()}`;
  admin('create-invitation', '--code', invitation, '--max-uses', '5');
  const email = `e2e-${Date.now()}@example.com`;

  await page.goto('/playground');
  await openLogin(page);
  await enterMailedCode(page, mailbox, email);

  // §4 "After login": the information modal shows once for a new user.
  const info = page.getByRole('dialog', { name: 'Tell us about you' });
  await expect(info).toBeVisible();
  await info.getByLabel('Company').fill('Acme Labs');
  await info.getByLabel('How did you hear about us?').fill('A colleague');
  await expect(info.getByText('11/1,000')).toBeVisible();
  await info.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(TOASTS.saved)).toBeVisible();

  const account = page.getByRole('button', { name: /Account menu/ });
  await expect(account).toContainText('0 credits');

  await account.click();
  await page.getByRole('menuitem', { name: 'My Invitation' }).click();
  const redeem = page.getByRole('dialog', { name: 'My Invitation' });
  await redeem.getByRole('button', { name: 'Redeem' }).click();
  await expect(redeem.getByText('Please enter invitation code')).toBeVisible();
  await redeem.getByLabel('Invitation code').fill(invitation);
  await redeem.getByRole('button', { name: 'Redeem' }).click();
  await expect(page.getByText(TOASTS.redeemed)).toBeVisible();
  await expect(account).toContainText('500 credits');

  await account.click();
  await page.getByRole('menuitem', { name: 'Dashboard' }).click();
  await page.waitForURL('**/dashboard?type=dashboard');
  await expect(page.getByTestId('credits')).toHaveText('500');
  await expect(page.getByText('Acme Labs')).toBeVisible();

  await page.getByRole('tab', { name: 'Billing' }).click();
  const row = page.getByRole('row').filter({ hasText: invitation });
  await expect(row).toContainText('+500');
  await expect(row.getByRole('cell').last()).toHaveText('500');

  await page.getByRole('tab', { name: 'API key' }).click();
  const key = page.getByTestId('api-key');
  await expect(key).toContainText('••••');
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText(TOASTS.copied)).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/^sk-/);
  await page.getByRole('button', { name: 'Reveal' }).click();
  await expect(key).toHaveText(copied);

  // The copied key works as a Bearer key on the API.
  const viaKey = await page.request.post('/user/info', { headers: { authorization: `Bearer ${copied}` } });
  expect((await viaKey.json()).data.userEmail).toBe(email);

  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.waitForURL('**/playground');
  await hydrated(page);
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  expect(await page.evaluate(() => [localStorage.getItem('userToken'), localStorage.getItem('userKey')])).toEqual([
    null,
    null,
  ]);
});

test('the email step validates on blur and the code boxes accept a pasted code', async ({ page }) => {
  const email = `paste-${Date.now()}@example.com`;
  await page.goto('/playground');
  const dialog = await openLogin(page);
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByLabel('Email').blur();
  await expect(dialog.getByText('Invalid email address')).toBeVisible();
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(/Resend in \d+s/)).toBeVisible();
  const code = await mailbox.nextCode(email);
  await page.getByLabel('Digit 1').focus();
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    document.activeElement!.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, code);
  await skipAboutYou(page);
  await expect(page.getByRole('button', { name: /Account menu/ })).toContainText('0 credits');
});

test('a guest on the dashboard gets the login modal', async ({ page }) => {
  await page.goto('/dashboard?type=key');
  await expect(page.getByRole('dialog', { name: 'Log in or sign up' })).toBeVisible();
});
