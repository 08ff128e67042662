// Tests of the main-thread stub: §5 validation with Chinese warnings, §3 entry fields, seqId wrap, lazy worker, stay
// time (page leave and the stash: tracker-stash.test.ts).
import { describe, expect, it, vi } from 'vitest';
import { TRACKING, TRACKING_LIMITS, TRACKING_WARNINGS, TRACKING_BROWSER } from '../product-rules';
import { createEntryFactory, nextSeqId } from './entry';
import { sampled } from './tracker';
import { setupTab as setup } from './tracker.fixtures';
import type { QueuedEntry } from './types';

describe('tracking stub', () => {
  it('validation: invalid events are dropped with the Chinese warnings of SPEC.md §8', () => {
    const { tracker, warnings } = setup();
    expect(tracker.init({ appKey: '' })).toBe(false);
    expect(tracker.init({ appKey: 'k', domain: 5 as unknown as string })).toBe(false);
    expect(tracker.init({ appKey: 'k', logPrefix: 'a_b' })).toBe(false);
    expect(warnings).toEqual([TRACKING_WARNINGS.appKey, TRACKING_WARNINGS.domain, TRACKING_WARNINGS.eventPrefix]);
    expect(tracker.init({ appKey: 'k' })).toBe(true);
    warnings.length = 0;
    expect(tracker.report({ id: 'a_b', action: 'click' })).toBeNull();
    expect(tracker.report({ id: 'a_b_c', action: 'tap' })).toBeNull();
    expect(
      tracker.report({ id: 'a_b_c', action: 'click', logmap: [] as unknown as Record<string, unknown> }),
    ).toBeNull();
    expect(warnings).toEqual([TRACKING_WARNINGS.eventId, TRACKING_WARNINGS.action, TRACKING_WARNINGS.logmap]);
    expect(tracker.pendingCount()).toBe(0);
  });

  it('validation: the logmap limit is in UTF-8 bytes, as the collector counts it, not UTF-16 units', () => {
    const { tracker, warnings } = setup();
    tracker.init({ appKey: 'k' });
    // {"s":"…"} is 8 bytes around the text; "é" is one UTF-16 unit and two bytes.
    const room = TRACKING_LIMITS.logmapMaxBytes - 8;
    expect(tracker.report({ id: 'a_b_c', action: 'click', logmap: { s: 'é'.repeat(room / 2 + 1) } })).toBeNull();
    expect(warnings).toEqual([TRACKING_WARNINGS.logmap]);
    expect(tracker.report({ id: 'a_b_c', action: 'click', logmap: { s: 'é'.repeat(room / 2) } })).not.toBeNull();
    expect(tracker.report({ id: 'a_b_c', action: 'click', logmap: { s: 'x'.repeat(room) } })).not.toBeNull();
    expect(warnings).toHaveLength(1);
  });

  it('config locking in the stub: later inits are ignored', () => {
    const { tracker } = setup();
    expect(tracker.init({ appKey: 'k' })).toBe(true);
    expect(tracker.init({ appKey: 'other' })).toBe(false);
  });

  it('entries carry every §3 field, the numeric action code and a unique entry id; foid/ffid chain', () => {
    const { tracker, storage } = setup();
    storage.setItem('userId', 'u-1');
    tracker.init({ appKey: 'k', logPrefix: 'web_home_page', baseLogmap: { app: 'site' } });
    tracker.report({ id: 'btn_a', action: 'click', logmap: { x: 1 } });
    tracker.report({ id: 'btn_b', action: 'press' });
    expect(tracker.pendingCount()).toBe(2);
  });

  it('lazy worker: the worker is created only after idle and then receives the pending entries in one message', async () => {
    const { tracker, connect, runIdle, enqueued } = setup();
    tracker.init({ appKey: 'k' });
    const id = tracker.report({ id: 'a_b_c', action: 'show', logmap: { n: 1 } });
    tracker.report({ id: 'a_b_c', action: 'show', logmap: { n: 2 } });
    expect(connect).not.toHaveBeenCalled();
    await runIdle();
    expect(connect).toHaveBeenCalledTimes(1);
    expect(enqueued).toHaveLength(1);
    const [first, second] = enqueued[0]!;
    expect(first).toMatchObject({
      entryId: id,
      seqId: 1,
      oid: 'a_b_c',
      action: 3,
      foid: '',
      ffid: 'a_b_c',
      logmap: { n: 1 },
      tab: tracker.tab,
    });
    expect(second).toMatchObject({ seqId: 2, foid: 'a_b_c', coldStartId: first!.coldStartId });
    expect(first!.entryId).not.toBe(second!.entryId);
    expect(tracker.pendingCount()).toBe(0);
  });

  it('a burst of reports before the worker runs asks for one idle callback, not one per report', async () => {
    const { tracker, idleCount, runIdle, connect, enqueued } = setup();
    tracker.init({ appKey: 'k' });
    for (let i = 0; i < 100; i++) tracker.report({ id: 'a_b_c', action: 'show', logmap: { i } });
    expect(idleCount()).toBe(1);
    await runIdle();
    expect(connect).toHaveBeenCalledTimes(1);
    expect(enqueued.flat()).toHaveLength(100);
  });

  it('uid: the signed-in user is read once per task, by its first report, for every entry reported in it', async () => {
    const { tracker, storage } = setup();
    const userReads = () => getItem.mock.calls.filter(([key]) => key === 'userId').length;
    const getItem = vi.spyOn(storage, 'getItem');
    tracker.init({ appKey: 'k' });
    storage.setItem('userId', 'u-1');
    const ids = Array.from({ length: 5 }, () => tracker.report({ id: 'a_b_c', action: 'click' }));
    expect(userReads()).toBe(1);
    await Promise.resolve();
    // Signed in as someone else: the next task's reports carry the new user.
    storage.setItem('userId', 'u-2');
    ids.push(tracker.report({ id: 'a_b_c', action: 'click' }));
    expect(userReads()).toBe(2);
    tracker.reportLeft();
    const stash = JSON.parse(storage.getItem(TRACKING_BROWSER.stashPrefix + tracker.tab)!) as QueuedEntry[];
    expect(stash.map((e) => [e.entryId, e.uid])).toEqual(ids.map((id, i) => [id, i < 5 ? 'u-1' : 'u-2']));
    expect(new Set(ids).size).toBe(6);
  });

  it('stay time: hidden reports stay time since start, visible resets the start (SPEC.md §4)', async () => {
    vi.useFakeTimers();
    try {
      const { tracker, runIdle, enqueued } = setup();
      tracker.init({ appKey: 'k' });
      vi.advanceTimersByTime(5000);
      tracker.reportStay('/p');
      vi.advanceTimersByTime(1000);
      tracker.resetStart();
      vi.advanceTimersByTime(2000);
      tracker.reportStay('/p');
      const runs = runIdle();
      await vi.runAllTimersAsync();
      await runs;
      const stays = enqueued.flat();
      expect(stays.map((e) => e.logmap.stayMs)).toEqual([5000, 2000]);
      expect(stays[0]).toMatchObject({ oid: 'web_page_stay', action: 5 });
    } finally {
      vi.useRealTimers();
    }
  });

  it("online: the page passes the browser's online event to its worker, which Chromium never tells itself", async () => {
    const { tracker, runIdle, onlines } = setup();
    tracker.init({ appKey: 'k' });
    // Before the worker runs there is nothing to pass on (its first start sends what is queued anyway).
    tracker.online();
    expect(onlines).toHaveLength(0);
    await runIdle();
    const { online } = tracker;
    online();
    expect(onlines).toHaveLength(1);
  });

  it('page view is reported only when a referrer source exists (SPEC.md §2)', () => {
    const { tracker, storage } = setup();
    tracker.init({ appKey: 'k' });
    expect(tracker.reportPageView('/p', '')).toBeNull();
    expect(tracker.reportPageView('/p', 'https://ref.example/')).not.toBeNull();
    storage.setItem('from', 'ad');
    expect(tracker.reportPageView('/p', '')).not.toBeNull();
  });

  it('seqId wraps after 10 000', () => {
    expect(nextSeqId(TRACKING.seqIdWrap - 1)).toBe(TRACKING.seqIdWrap);
    expect(nextSeqId(TRACKING.seqIdWrap)).toBe(1);
    const make = createEntryFactory();
    let last = 0;
    for (let i = 0; i < TRACKING.seqIdWrap + 1; i++)
      last = make({ oid: 'a_b_c', action: 1, logmap: {}, uid: '' }).seqId;
    expect(last).toBe(1);
  });

  it('performance sample rate 0.2 (SPEC.md §9)', () => {
    expect(sampled(() => 0.19)).toBe(true);
    expect(sampled(() => 0.2)).toBe(false);
  });
});
