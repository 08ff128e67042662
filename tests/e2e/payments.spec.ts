// Payments end to end (docs/payments.md): a signed-in user buys a pack through (a local stand-in for) Stripe Checkout,
// lands on /payment, and sees the new balance and the purchase in the billing history.
import { expect, test } from '@playwright/test';
import { CREDIT_PACKS } from '../../src/lib/product-rules';
import { startFakeStripe, type FakeStripe } from '../../server/test-support/fake-stripe';
import { E2E_APP_PORT } from './support/accounts-env';
import { useMailbox } from './support/mailbox';
import { stripePort } from './support/payments-env';
import { hydrated, signInByMail } from './support/sign-in';

const mailbox = useMailbox();
let stripe: FakeStripe;

test.beforeAll(async () => {
  stripe = await startFakeStripe({
    port: stripePort(E2E_APP_PORT),
    webhookUrl: `http://localhost:${E2E_APP_PORT}/payment/webhook`,
  });
});
test.afterAll(async () => {
  await stripe.close();
});

test('a guest who clicks Buy is asked to log in', async ({ page }) => {
  await page.goto('/pricing');
  await page.getByRole('button', { name: /^Buy Starter/ }).scrollIntoViewIfNeeded();
  await hydrated(page);
  await page.getByRole('button', { name: /^Buy Starter/ }).click();
  await expect(page.getByRole('dialog', { name: 'Log in or sign up' })).toBeVisible();
});

test('a signed-in user buys a pack, sees the result page, the new balance and the history row', async ({ page }) => {
  const pack = CREDIT_PACKS[1]!;
  await page.goto('/pricing');
  await signInByMail(page, mailbox, `buyer-${Date.now()}@example.com`);
  await expect(page.getByRole('button', { name: /Account menu/ })).toContainText('0 credits');

  await page.getByRole('button', { name: new RegExp(`^Buy ${pack.name}`) }).click();
  await page.waitForURL('**/payment?status=success&session_id=cs_test_*');
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  const credits = pack.credits.toLocaleString('en-US');
  await expect(page.getByRole('button', { name: /Account menu/ })).toContainText(
    new RegExp(`${credits}|${pack.credits} credits`),
  );

  await page.getByRole('link', { name: 'View billing' }).click();
  await page.waitForURL('**/dashboard?type=billing');
  const row = page.getByRole('row').filter({ hasText: 'Credit purchase' });
  await expect(row).toContainText(`+${pack.credits}`);
});
