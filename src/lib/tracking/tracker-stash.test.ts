// Tests of the stub at page leave: sealed beacons, the stash of unconfirmed entries and its hand-over to another tab.
import { describe, expect, it } from 'vitest';
import { TRACKING_BROWSER, TRACKING_PATHS } from '../product-rules';
import { memoryStorage, setupTab as setup } from './tracker.fixtures';
import type { QueuedEntry } from './types';

describe('tracking stub at page leave', () => {
  it('page leave: sealed bodies go by sendBeacon as text to track_info; unconfirmed entries are stashed for the next tab', async () => {
    const { tracker, beacons, runIdle, seal, storage } = setup();
    tracker.init({ appKey: 'k', domain: 'https://collector.example/' });
    await runIdle();
    // The worker seals the bodies and names the URL (config domain + track_info; see src/worker/tracking-api.test.ts).
    seal(['{"msgEncrypt":"AAA"}', '{"msgEncrypt":"BBB"}'], `https://collector.example${TRACKING_PATHS.trackInfo}`);
    tracker.suspend();
    const id = tracker.report({ id: 'a_b_c', action: 'click' });
    tracker.reportLeft();
    expect(beacons.map((b) => b.body)).toEqual(['{"msgEncrypt":"AAA"}', '{"msgEncrypt":"BBB"}']);
    expect(beacons.map((b) => b.url)).toEqual([
      `https://collector.example${TRACKING_PATHS.trackInfo}`,
      `https://collector.example${TRACKING_PATHS.trackInfo}`,
    ]);
    const stash = JSON.parse(storage.getItem(TRACKING_BROWSER.stashPrefix + tracker.tab)!) as QueuedEntry[];
    expect(stash.map((e) => e.entryId)).toEqual([id]);
  });

  it('stash hand-over: a later tab drains stashed entries into its worker and clears the stash', async () => {
    const a = setup();
    const b = setup();
    b.storage.setItem(
      `${TRACKING_BROWSER.stashPrefix}gone`,
      JSON.stringify([{ entryId: 'x1', oid: 'a_b_c', tab: 'gone' }]),
    );
    b.tracker.init({ appKey: 'k' });
    await b.runIdle();
    expect(b.enqueued.flat().map((e) => e.entryId)).toEqual(['x1']);
    expect(b.storage.getItem(`${TRACKING_BROWSER.stashPrefix}gone`)).toBeNull();
    expect(a.enqueued).toHaveLength(0);
  });

  it('stash adoption: a stash written by a closing tab is adopted at once by a tab whose worker is already running', async () => {
    const shared = memoryStorage();
    const closing = setup(shared, { workerStores: false });
    const open = setup(shared);
    closing.tracker.init({ appKey: 'k' });
    open.tracker.init({ appKey: 'k' });
    await closing.runIdle();
    await open.runIdle();
    // Reported just before the tab closes: handed to a worker that is terminated before it stores them.
    const ids = [1, 2, 3].map((n) => closing.tracker.report({ id: 'a_b_c', action: 'click', logmap: { n } }));
    await Promise.resolve();
    expect(closing.enqueued.flat().map((e) => e.entryId)).toEqual(ids);
    closing.tracker.reportLeft();
    const key = `${TRACKING_BROWSER.stashPrefix}${closing.tracker.tab}`;
    expect(shared.getItem(key)).not.toBeNull();
    // The tab still open was connected long before: the storage event, not a new connect, must hand the stash over.
    expect(open.enqueued).toHaveLength(0);
    await open.storageEvent();
    expect(open.enqueued.flat().map((e) => e.entryId)).toEqual(ids);
    expect(open.enqueued.flat().every((e) => e.tab === closing.tracker.tab)).toBe(true);
    expect(shared.getItem(key)).toBeNull();
    expect(open.connect).toHaveBeenCalledTimes(1);
  });

  it('stash adoption: a tab whose worker has not started yet adopts stashes when it starts', async () => {
    const shared = memoryStorage();
    const later = setup(shared);
    later.tracker.init({ appKey: 'k' });
    shared.setItem(
      `${TRACKING_BROWSER.stashPrefix}gone`,
      JSON.stringify([{ entryId: 'x1', oid: 'a_b_c', tab: 'gone' }]),
    );
    await later.storageEvent();
    expect(later.enqueued).toHaveLength(0);
    await later.runIdle();
    expect(later.enqueued.flat().map((e) => e.entryId)).toEqual(['x1']);
    expect(shared.getItem(`${TRACKING_BROWSER.stashPrefix}gone`)).toBeNull();
  });
});
