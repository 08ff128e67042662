// Stay time end to end (SPEC.md §4): every page left by a link, a reload or a closed tab sends exactly one stay event.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { exportedEvents, openTab, trackerReady, trackerStatus, type StoredEvent } from './support/tracking';

const STAY_OID = 'web_page_stay';

/** Clicks the footer link to `href` and waits for the next page's tracker. */
async function followLink(page: Page, href: string): Promise<void> {
  await Promise.all([page.waitForURL(`**${href}`), page.locator(`footer a[href="${href}"]`).first().click()]);
  await trackerReady(page);
}

async function reload(page: Page): Promise<void> {
  await page.reload();
  await trackerReady(page);
}

/** Stay events the collector holds for this browser profile's device id. */
function storedStays(deviceId: string): StoredEvent[] {
  return exportedEvents().filter((e) => e.device_id === deviceId && e.oid === STAY_OID);
}

test('every page left by link, reload or tab close delivers exactly one stay event to the collector', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context: BrowserContext = await browser.newContext();
  // The cookie banner is declined up front so it never covers the footer links.
  await context.addInitScript(() => localStorage.setItem('cookie-accpet', 'declined'));
  /** The path of every page this test leaves, in order. */
  const left: string[] = [];

  const a = await openTab(context, '/docs');
  const { deviceId } = await trackerStatus(a);
  expect(deviceId).not.toBe('');

  await followLink(a, '/pricing');
  left.push('/docs');
  await reload(a);
  left.push('/pricing');

  const b = await openTab(context, '/docs');
  await a.close();
  left.push('/pricing');

  await followLink(b, '/pricing');
  left.push('/docs');
  await reload(b);
  left.push('/pricing');

  // The tab that stays open is the one that adopts the last closing tab's stash and sends it.
  const keeper = await openTab(context, '/pricing');
  await b.close();
  left.push('/pricing');

  try {
    await expect.poll(() => storedStays(deviceId).length, { timeout: 45_000, intervals: [1000] }).toBe(left.length);
  } catch (error) {
    const details = { expected: left, stored: storedStays(deviceId), keeper: await trackerStatus(keeper) };
    await test
      .info()
      .attach('stay-events.json', { body: JSON.stringify(details, null, 2), contentType: 'application/json' });
    throw error;
  }
  const stays = storedStays(deviceId);
  console.log(`stay events stored: ${stays.length} of ${left.length} pages left`);
  // One per page load left: the page loads are told apart by their cold start id.
  expect(new Set(stays.map((e) => e.cold_start_id)).size).toBe(left.length);
  expect(stays.map((e) => e.logmap.path).sort()).toEqual([...left].sort());
  for (const stay of stays) {
    expect(stay.action).toBe(5);
    expect(stay.logmap.stayMs).toEqual(expect.any(Number));
  }
  // The page still open has not been left, so it has sent no stay of its own.
  await expect.poll(async () => (await trackerStatus(keeper)).queued, { timeout: 20_000 }).toBe(0);
  expect(storedStays(deviceId)).toHaveLength(left.length);
  await context.close();
});
