// Every route of the site renders cleanly and accessibly (one check per route, run in parallel by the "pages" project):
// a 200, a title, a visible h1 (exactly one on the reference pages), no console error, no serious axe violation.
import { test } from '@playwright/test';
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

test.beforeEach(({ page }) => declineCookies(page));

for (const route of SITE_ROUTES) {
  test(`${route} renders with a title, a heading, no console error and no serious accessibility violation`, async ({ page }) => {
    await expectRendersCleanly(page, route, { singleHeading: false });
  });
}

for (const route of REFERENCE_ROUTES) {
  test(`${route} renders with a title, one heading, no console error and no serious accessibility violation`, async ({ page }) => {
    await expectRendersCleanly(page, route, { singleHeading: true });
  });
}
