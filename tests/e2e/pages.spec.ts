// Every route of the site renders cleanly and accessibly (one check per route, run in parallel by the "guest" project):
// a 200, a title, a visible h1 (exactly one on the reference pages), no console error, no serious axe violation.
import { test as base, type Page } from '@playwright/test';
import { PRODUCTS } from '../../src/lib/site/products';
import { OPERATIONS } from '../../src/lib/api-contract';
import { declineCookies, expectRendersCleanly } from './support/page-checks';

const SITE_ROUTES = [
  '/playground',
  ...PRODUCTS.map((p) => `/playground/${p.slug}`),
  '/dashboard',
  '/dashboard?type=key',
  '/dashboard?type=billing',
  '/pricing',
  '/payment',
  '/payment?status=success',
  '/contact-us',
];
const REFERENCE_ROUTES = ['/reference', '/docs', '/api-reference', ...OPERATIONS.map((o) => `/api-reference/${o.id}`)];

/**
 * One guest tab per worker, reused by its checks: a visitor moves between pages in one tab, and a new browser context
 * for each of 51 routes cost more than the checks themselves on a 2-core machine.
 */
const test = base.extend<object, { guestPage: Page }>({
  guestPage: [
    async ({ browser }, use) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await declineCookies(page);
      await use(page);
      await context.close();
    },
    { scope: 'worker' },
  ],
});

for (const route of SITE_ROUTES) {
  test(`${route} renders with a title, a heading, no console error and no serious accessibility violation`, async ({
    guestPage,
  }) => {
    await expectRendersCleanly(guestPage, route, { singleHeading: false });
  });
}

for (const route of REFERENCE_ROUTES) {
  test(`${route} renders with a title, one heading, no console error and no serious accessibility violation`, async ({
    guestPage,
  }) => {
    await expectRendersCleanly(guestPage, route, { singleHeading: true });
  });
}
