// Smoke flow: the root keeps the query on its way to the playground, and an island hydrates and answers a click.
import { expect, test } from '@playwright/test';

test('/ sends the browser to /playground and keeps the query (SPEC.md §2)', async ({ page }) => {
  await page.goto('/?a=1');
  await page.waitForURL('**/playground?a=1');
  expect(new URL(page.url()).search).toBe('?a=1');
  // Refined from the server's offer answer (src/lib/site/offer-headline.ts): the kinds it makes, 'with AI' only when it
  // is so.
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/^Create speech/);
});

test('the cookie banner island hydrates, answers a click and stays dismissed after reload', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto('/pricing');
  const banner = page.getByRole('region', { name: 'Cookie consent' });
  await expect(banner).toBeVisible();
  await banner.getByRole('button', { name: 'Accept all' }).click();
  await expect(banner).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('cookie-accpet'))).toBe('accepted');
  await page.reload();
  // Wait until every island has hydrated, so "hidden" is the island's decision and not its absence.
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
  await expect(banner).toBeHidden();
  expect(errors).toEqual([]);
});

test('an unknown path lands on / and then the playground', async ({ page }) => {
  await page.goto('/foo/bar');
  await page.waitForURL('**/playground');
});
