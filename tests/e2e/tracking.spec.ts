// Tracking end to end: three tabs share one durable queue; tabs close mid-batch; the collector holds every event
// exactly once. Runs on /docs (no island of its own) and on /pricing (a React island hydrated client:visible), or on
// TRACK_PAGE alone.
import { expect, test, type Page } from '@playwright/test';
import { exportedEvents as exported, openTab, trackerStatus as status, type TrackerWindow } from './support/tracking';

const PAGES = process.env.TRACK_PAGE ? [process.env.TRACK_PAGE] : ['/docs', '/pricing'];
const STASH_PREFIX = 'dreamTracker.stash.';

async function report(page: Page, run: string, tab: string, count: number): Promise<string[]> {
  return page.evaluate(
    ({ tab, count, run }) => {
      const ids: string[] = [];
      for (let n = 0; n < count; n++) {
        const id = (window as unknown as TrackerWindow).dreamTracker.report({
          id: 'e2e_tab_event',
          action: 'click',
          logmap: { run, tab, n },
        });
        if (id) ids.push(id);
      }
      return ids;
    },
    { tab, count, run },
  );
}

/** Stashes (entries a closing tab's worker had not stored) still in localStorage, as `key: entryId…` lines. */
async function stashes(page: Page): Promise<string[]> {
  return page.evaluate((prefix) => {
    const found: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i)!;
      if (key.startsWith(prefix)) found.push(`${key}: ${localStorage.getItem(key)}`);
    }
    return found;
  }, STASH_PREFIX);
}

async function setVisibility(page: Page, state: 'hidden' | 'visible') {
  // Headless tabs are always visible; the page's view of its visibility is overridden and the real event fired.
  await page.evaluate((value) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => value === 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);
}

for (const url of PAGES) {
  test(
    `three tabs share one queue on ${url}; the leader and another tab close with unsent events; the ` +
      `collector holds every event exactly once and never sees plaintext`,
    async ({ browser }) => {
      test.setTimeout(120_000);
      const run = `run${Date.now()}${url.replace(/\W/g, '-')}`;
      const context = await browser.newContext();
      const wire: string[] = [];
      const watch = (url: string, body: string | null) => {
        if (url.includes('/spider/api/v1/report/track_info')) wire.push(body ?? '');
      };
      context.on('request', (request) => watch(request.url(), request.postData()));
      const pages = [await openTab(context, url), await openTab(context, url), await openTab(context, url)];

      const statuses = await Promise.all(pages.map(status));
      expect(statuses.filter((s) => s.leader)).toHaveLength(1);
      const leader = pages[statuses.findIndex((s) => s.leader)]!;
      const others = pages.filter((p) => p !== leader);

      const expected: string[] = [];
      /** Which step reported each entry id, for the failure report. */
      const reporter = new Map<string, string>();
      const reported = async (page: Page, label: string, count: number) => {
        const ids = await report(page, run, label, count);
        for (const id of ids) reporter.set(id, label);
        expected.push(...ids);
      };
      for (const [i, page] of pages.entries()) await reported(page, `tab${i}`, 7);
      // The leader closes mid-batch: its events and the others' sit in the shared queue, some not yet sent. Closing at
      // once after reporting also terminates its worker, often before its IndexedDB write commits: the page's stash
      // (localStorage) then holds those events, and a tab still open must adopt it.
      await reported(leader, 'leader-last', 3);
      await leader.close();

      // Another tab closes while it has unsent events of its own.
      await reported(others[0]!, 'closing', 6);
      await others[0]!.close();

      // The last tab takes over within a few seconds, goes hidden (stay time) and visible again, and reports more.
      const last = others[1]!;
      await expect.poll(async () => (await status(last)).leader, { timeout: 10_000 }).toBe(true);
      await setVisibility(last, 'hidden');
      await setVisibility(last, 'visible');
      await reported(last, 'last', 4);
      expect(expected).toHaveLength(7 * 3 + 3 + 6 + 4);

      try {
        await expect
          .poll(() => exported().filter((e) => e.logmap.run === run).length, { timeout: 45_000, intervals: [1000] })
          .toBe(expected.length);
      } catch (error) {
        // Name the missing events and where they were reported, and show what the last tab still holds.
        const stored = new Set(exported().map((e) => e.entry_id));
        const missing = expected.filter((id) => !stored.has(id)).map((id) => `${id} (${reporter.get(id)})`);
        const details = { missing, stashes: await stashes(last), status: await status(last) };
        await test
          .info()
          .attach('missing-events.json', { body: JSON.stringify(details, null, 2), contentType: 'application/json' });
        throw error;
      }
      // Every stash a closing tab left was adopted by the last tab (and deleted once stored), not left for a next page
      // load.
      await expect.poll(() => stashes(last), { timeout: 10_000 }).toEqual([]);
      // Let any late copies (beacons, a resend by the new leader) land before the final comparison.
      await expect.poll(async () => (await status(last)).queued, { timeout: 20_000 }).toBe(0);
      const stored = exported();
      const ours = stored.filter((e) => e.logmap.run === run);
      expect(ours).toHaveLength(expected.length);
      expect(new Set(ours.map((e) => e.entry_id))).toEqual(new Set(expected));
      expect(new Set(stored.map((e) => e.entry_id)).size).toBe(stored.length);
      expect(stored.some((e) => e.oid === 'web_page_stay')).toBe(true);

      // The wire carried only encrypted batches: no event id, logmap or run marker in any track_info body.
      expect(wire.length).toBeGreaterThan(0);
      for (const body of wire) {
        expect(body).not.toContain(run);
        expect(body).not.toContain('e2e_tab_event');
        expect(body).not.toContain('logmap');
        expect((JSON.parse(body) as { msgEncrypt: string }).msgEncrypt).toMatch(/^[A-Za-z0-9+/]+=*$/);
      }
      await context.close();
    },
  );
}
