// The one-time sign-in link of a code mail (docs/security.md "Sign-in limits"): it signs in on the root page, also once
// wrong codes spent the day's budget, and only once.
import { expect, test } from '@playwright/test';
import { ACCOUNT_MESSAGES, LOGIN_GUESSES } from '../../src/lib/product-rules';
import { useMailbox } from './support/mailbox';
import { openLogin, openSignInLink } from './support/sign-in';

const mailbox = useMailbox();

test('after too many wrong codes the modal points to the link, and the link signs in once', async ({
  page,
  browser,
}) => {
  const email = `link-${Date.now()}@example.com`;
  await page.goto('/playground');
  const dialog = await openLogin(page);
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  const codeStep = page.getByRole('dialog', { name: 'Enter the code' });
  await expect(codeStep.getByText('The email also has a link that signs you in.')).toBeVisible();
  const { code, link } = await mailbox.nextMail(email);
  const wrong = String((Number(code) + 1) % 10_000).padStart(4, '0');
  // Types a code and waits for the answer: the boxes are emptied and enabled again after a refusal.
  const enter = async (digits: string) => {
    await page.getByLabel('Digit 1').focus();
    await page.keyboard.type(digits);
    await expect(page.getByLabel('Digit 4')).toHaveValue('');
    await expect(page.getByLabel('Digit 1')).toBeEnabled();
  };
  for (let i = 0; i < LOGIN_GUESSES.perEmailPerDay; i += 1) {
    await enter(wrong);
    await expect(codeStep.getByRole('alert')).toContainText(ACCOUNT_MESSAGES.codeInvalid);
  }
  await enter(code);
  await expect(codeStep.getByRole('alert')).toContainText(ACCOUNT_MESSAGES.emailGuessCap);

  // The mail is often opened elsewhere: a fresh browser context follows the link.
  const other = await browser.newContext();
  const linked = await other.newPage();
  await openSignInLink(linked, link);
  expect(await linked.evaluate(() => localStorage.getItem('userToken'))).toBeTruthy();
  await other.close();

  // Used once, the link signs nobody in again and says so.
  const again = await browser.newContext();
  const replay = await again.newPage();
  await replay.goto(link);
  await expect(replay.locator('#oauth-status')).toContainText(ACCOUNT_MESSAGES.linkUsed);
  expect(new URL(replay.url()).search).toBe('');
  await again.close();
});
