// The site shell in Chromium: navigation works by mouse, keyboard and touch; the mobile menu folds and unfolds;
// the contact form sends. (Every route's clean, accessible render is checked once, in pages.spec.ts.)
import { expect, test } from '@playwright/test';
import { declineCookies, expectNoSidewaysScroll } from './support/page-checks';

test.beforeEach(({ page }) => declineCookies(page));

test('the Products dropdown opens by mouse and closes by a click elsewhere', async ({ page }) => {
  await page.goto('/pricing');
  const products = page.locator('details.nav__dropdown', { has: page.getByText('Products', { exact: true }) });
  await products.locator('summary').click();
  await expect(products.getByRole('link', { name: /Text to Speech/ })).toBeVisible();
  // A click on the page beside the open panel (the wide panel can cover the footer once it is scrolled into view).
  await page.mouse.click(5, 600);
  await expect(products.getByRole('link', { name: /Text to Speech/ })).toBeHidden();
});

test('dropdowns work by keyboard: Enter opens, Escape closes and returns focus, links follow', async ({ page }) => {
  await page.goto('/pricing');
  const apis = page.locator('summary', { hasText: 'APIs' });
  await apis.focus();
  await page.keyboard.press('Enter');
  const reference = page.locator('details.nav__dropdown', { has: apis }).getByRole('link', { name: /API Reference/ });
  await expect(reference).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(reference).toBeHidden();
  await expect(apis).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.waitForURL('**/reference');
});

test('only one dropdown is open at a time', async ({ page }) => {
  await page.goto('/pricing');
  await page.locator('summary', { hasText: 'Products' }).click();
  await page.locator('summary', { hasText: 'Company' }).click();
  await expect(page.locator('details.nav__dropdown[open]')).toHaveCount(1);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });

  test('the menu folds behind a Menu button and opens by touch', async ({ page }) => {
    await page.goto('/pricing');
    const menu = page.getByRole('navigation', { name: 'Main' });
    const toggle = page.getByRole('button', { name: 'Menu' });
    await expect(menu).toBeHidden();
    await toggle.tap();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(menu).toBeVisible();
    await menu.locator('summary', { hasText: 'Products' }).tap();
    await menu.getByRole('link', { name: /Lip Sync/ }).tap();
    await page.waitForURL('**/playground/lipSync');
  });

  test('pages fit the screen without sideways scrolling', async ({ page }) => {
    await expectNoSidewaysScroll(page, ['/playground', '/pricing', '/contact-us', '/payment']);
  });
});

test('the contact form sends a message and says so; a bad email is refused under its field', async ({ page }) => {
  await page.goto('/contact-us?topic=billing');
  const form = page.locator('#contact-form');
  await expect(form.getByLabel('Topic')).toHaveValue('billing');
  await form.getByLabel('Name').fill('Grace');
  await form.getByLabel('Email').fill('not-an-email');
  await form.getByLabel('Message').fill('Please send me an invoice for my last purchase.');
  await form.getByRole('button', { name: 'Send message' }).click();
  await expect(form.getByLabel('Email')).toHaveAccessibleDescription('Invalid email address');
  await form.getByLabel('Email').fill('grace@example.com');
  await form.getByRole('button', { name: 'Send message' }).click();
  await expect(form.getByText('Your message reached us')).toBeVisible();
  await expect(form.getByLabel('Name')).toHaveValue('');
});
