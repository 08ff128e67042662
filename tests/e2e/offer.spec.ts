// What this server offers, said the same on every page: the pricing page (free-here notes, unserved rows, names), Buy
// while payments are off, the sign-in methods of the login modal and the landing's headline; on a server with nothing
// configured and on the run's main server (payments, Google and GitHub configured; no-model runs charged in full).
import { expect, test, type Page } from '@playwright/test';
import { ENGINE_LABELS, FEATURE_MESSAGES, MESSAGES, PAYMENTS_OFF } from '../../src/lib/product-rules';
import { E2E_APP_PORT } from './support/accounts-env';
import { declineCookies } from './support/page-checks';
import { startPlainServer, type PlainServer } from './support/plain-server';
import { openLogin } from './support/sign-in';

test.beforeEach(({ page }) => declineCookies(page));

/** The pricing table's cell that names a feature row. */
const row = (page: Page, name: string) => page.locator(`tbody[data-row="${name}"] th`);
const buyButtons = (page: Page) => page.getByRole('button', { name: /^Buy / });

test.describe('a server with no payments, no OAuth and only the offline engines', () => {
  let plain: PlainServer;
  test.beforeAll(async () => {
    // A cold start of the built server on a busy machine can outlast a test's 30 s.
    test.setTimeout(90_000);
    // After the account specs' fakes (+1000…+1003), on a port of its own.
    plain = await startPlainServer(E2E_APP_PORT + 1010);
  });
  test.afterAll(async () => {
    await plain?.close();
  });

  test('the pricing page says why runs are free here, marks what it cannot run, and names rows as the playground does', async ({
    page,
  }) => {
    await page.goto(`${plain.url}/pricing`);
    await expect(row(page, 'Text to Speech · Common')).toContainText(FEATURE_MESSAGES.free(ENGINE_LABELS.espeak));
    await expect(row(page, 'Text to Video')).toContainText(FEATURE_MESSAGES.free(ENGINE_LABELS.preview));
    for (const name of ['Dialogue', 'Character to Video · a script', 'Character to Video · your audio']) {
      await expect(row(page, name), name).toContainText('Free here');
    }
    for (const name of [
      'AI Clothes Changer',
      'Image generation',
      'Erase',
      'Face swap',
      'Speech to text',
      'Voice Clone',
    ]) {
      await expect(row(page, name), name).toContainText(FEATURE_MESSAGES.notAvailableHere);
    }
    // The list price stays beside the note.
    await expect(page.locator('tbody[data-row="Text to Speech · Common"]')).toContainText(
      '1 credit per 250 characters',
    );
    await expect(page.locator('main')).not.toContainText(/Live Photo|AI Model/);
  });

  test('Buy is disabled with the reason and a support link beside it before any click; nothing asks the checkout', async ({
    page,
  }) => {
    const checkout: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/payment/checkout')) checkout.push(request.url());
    });
    await page.goto(`${plain.url}/pricing`);
    await expect(buyButtons(page)).toHaveCount(3);
    for (const button of await buyButtons(page).all()) {
      await expect(button).toBeDisabled();
      await expect(button).toHaveAccessibleDescription(new RegExp(PAYMENTS_OFF.reason));
    }
    const reason = page.locator(`#${PAYMENTS_OFF.elementId}`);
    await expect(reason).toBeVisible();
    await expect(reason).toContainText(PAYMENTS_OFF.reason);
    const support = reason.getByRole('link', { name: PAYMENTS_OFF.contactSupport });
    // The site's support page (PUBLIC_SUPPORT_URL, by default the contact form's support topic).
    await expect(support).toHaveAttribute('href', '/contact-us?topic=support');
    await expect(page.getByText('Secure payment by Stripe')).toBeHidden();
    await buyButtons(page).first().click({ force: true });
    expect(checkout).toEqual([]);
    await support.click();
    await page.waitForURL('**/contact-us?topic=support');
  });

  test('the login modal offers email only, and leaving the untouched email field says nothing', async ({ page }) => {
    await page.goto(`${plain.url}/playground`);
    const dialog = await openLogin(page);
    await expect(dialog.getByRole('button', { name: 'Continue' })).toBeVisible();
    // The answer that says so is in before the modal asks (the page asked on load).
    await page.waitForLoadState('networkidle');
    await expect(dialog.getByRole('button', { name: 'Google' })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'GitHub' })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Continue' }).focus();
    await expect(dialog.getByText(MESSAGES.invalidEmail)).toBeHidden();
  });

  test("the reference's price table uses the same names and marks what this server does not run", async ({ page }) => {
    await page.goto(`${plain.url}/reference`);
    await page.getByText('The full price table').click();
    const table = page.getByRole('region', { name: 'Price table' });
    await expect(table.getByRole('cell', { name: /^AI Clothes Changer/ })).toContainText(
      FEATURE_MESSAGES.notAvailableHere,
    );
    await expect(table).toContainText('Character to Video · a script');
    await expect(table).not.toContainText(/Live Photo|AI Model/);
  });

  test('the landing names what this server makes and promises no AI', async ({ page }) => {
    await page.goto(`${plain.url}/playground`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create speech and video');
    await expect(page.locator('body')).not.toContainText(/with AI|AI speech/);
  });
});

test.describe('the main server: payments, Google and GitHub configured, runs charged in full', () => {
  test('Buy is enabled with no reason beside it, and no row says a run is free', async ({ page }) => {
    await page.goto('/pricing');
    await expect(row(page, 'AI Clothes Changer')).toContainText(FEATURE_MESSAGES.notAvailableHere);
    for (const button of await buyButtons(page).all()) await expect(button).toBeEnabled();
    await expect(page.locator(`#${PAYMENTS_OFF.elementId}`)).toBeHidden();
    await expect(page.getByText('Secure payment by Stripe')).toBeVisible();
    await expect(page.locator('main')).not.toContainText('Free here');
  });

  test('the login modal offers Google and GitHub, and moving to them from the empty email field says nothing', async ({
    page,
  }) => {
    await page.goto(`http://localhost:${E2E_APP_PORT}/playground`);
    const dialog = await openLogin(page);
    const google = dialog.getByRole('button', { name: 'Google' });
    await expect(google).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'GitHub' })).toBeVisible();
    await expect(dialog.getByLabel('Email')).toBeFocused();
    await google.focus();
    await expect(dialog.getByText(MESSAGES.invalidEmail)).toBeHidden();
  });
});
