// Page checks shared by the site and reference specs: a clean, accessible render, no sideways scrolling, no cookie
// banner.
import AxeBuilder from '@axe-core/playwright';
import { expect, type ConsoleMessage, type Page } from '@playwright/test';

/**
 * Console errors and uncaught page errors from now on; `stop()` detaches the listeners (a page reused for several
 * checks).
 */
export function collectErrors(page: Page): string[] & { stop(): void } {
  const errors: string[] = [];
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  };
  const onPageError = (error: Error) => errors.push(error.message);
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  const stop = () => {
    page.off('console', onConsole);
    page.off('pageerror', onPageError);
  };
  // Not enumerable, so `expect(errors).toEqual([])` compares the messages alone.
  return Object.defineProperty(errors, 'stop', { value: stop }) as string[] & { stop(): void };
}

/** Dismisses the cookie banner up front (declined before any page loads) so it does not cover what the tests click. */
export async function declineCookies(page: Page): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('cookie-accpet', 'declined'));
}

/**
 * Runs axe in the page and returns its violations. Only violations are asked for: listing every passing node takes a
 * third of axe's time on long pages. Legacy mode runs axe in the page itself instead of opening a blank page to merge
 * frame results (about 1.5 s a check on a 2-core machine); the site has no cross-origin frames for that to miss.
 */
export async function axeViolations(
  page: Page,
  include?: string,
): Promise<Awaited<ReturnType<AxeBuilder['analyze']>>['violations']> {
  const builder = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
  if (include) builder.include(include);
  return (await builder.analyze()).violations;
}

/**
 * Loads `route` and expects 200, a "… · DreamAPI" title, a visible h1 (the only one with `singleHeading`),
 * no console or page error and no serious or critical axe violation.
 */
export async function expectRendersCleanly(page: Page, route: string, o: { singleHeading: boolean }): Promise<void> {
  const errors = collectErrors(page);
  try {
    await rendersCleanly(page, route, o, errors);
  } finally {
    errors.stop();
  }
}

async function rendersCleanly(
  page: Page,
  route: string,
  o: { singleHeading: boolean },
  errors: string[],
): Promise<void> {
  const response = await page.goto(route);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/\S+ · DreamAPI$/);
  const headings = page.getByRole('heading', { level: 1 });
  await expect(o.singleHeading ? headings : headings.first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  const results = await axeViolations(page);
  const serious = results.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  expect(errors).toEqual([]);
}

/** Whether the page as it is now fits the viewport's width (does not scroll sideways). */
export const noSidewaysScroll = (page: Page): Promise<boolean> =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Each route fits the viewport's width: the page never scrolls sideways. */
export async function expectNoSidewaysScroll(page: Page, routes: string[]): Promise<void> {
  for (const route of routes) {
    await page.goto(route);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, route).toBeLessThanOrEqual(0);
  }
}
