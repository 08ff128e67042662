// Page checks shared by the site and reference specs: a clean, accessible render, no sideways scrolling, no cookie banner.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Console errors and uncaught page errors from now on. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Dismisses the cookie banner up front (declined before any page loads) so it does not cover what the tests click. */
export async function declineCookies(page: Page): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('cookie-accpet', 'declined'));
}

/**
 * Loads `route` and expects 200, a "… · DreamAPI" title, a visible h1 (the only one with `singleHeading`),
 * no console or page error and no serious or critical axe violation.
 */
export async function expectRendersCleanly(page: Page, route: string, o: { singleHeading: boolean }): Promise<void> {
  const errors = collectErrors(page);
  const response = await page.goto(route);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/\S+ · DreamAPI$/);
  const headings = page.getByRole('heading', { level: 1 });
  await expect(o.singleHeading ? headings : headings.first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Only violations are read: asking for just them spares axe listing every passing node (a third of its time on long pages).
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  expect(errors).toEqual([]);
}

/** Each route fits the viewport's width: the page never scrolls sideways. */
export async function expectNoSidewaysScroll(page: Page, routes: string[]): Promise<void> {
  for (const route of routes) {
    await page.goto(route);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, route).toBeLessThanOrEqual(0);
  }
}
