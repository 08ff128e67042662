// Fake-timer tests of a collector over its budget (40029, HTTP 429 with Retry-After): a "try later", never a lost
// batch.
import { describe, expect, it, vi } from 'vitest';
import { TRACKING, TRACKING_ERROR_CODES, TRACKING_PATHS, TRACKING_RETRY } from '../product-rules';
import { leaderWith, ok, rig, sends, useEngineRig } from './engine.fixtures';
import { retryAfterMs } from './retry';
import type { Answer, TrackInfoBody } from './types';

useEngineRig();

const RETRY_AFTER_MS = 45_000;
const overBudget = (retryAfter = RETRY_AFTER_MS): Answer => ({
  code: TRACKING_ERROR_CODES.rateLimited,
  msg: 'over budget',
  retryAfterMs: retryAfter,
});

/** Advances the fake clock until another track_info goes out; the time it took. */
async function untilNextSend(limitMs: number): Promise<number> {
  const before = sends().length;
  const start = Date.now();
  while (sends().length === before && Date.now() - start < limitMs) await vi.advanceTimersByTimeAsync(100);
  return Date.now() - start;
}

describe('collector over budget', () => {
  it('40029 twice in a row: no entry is lost, each next try waits at least Retry-After, then the batch goes through', async () => {
    let refusals = 0;
    rig.handler = (path) => (path === TRACKING_PATHS.trackInfo && refusals++ < 2 ? overBudget() : ok(path));
    await leaderWith(3);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs);
    expect(sends()).toHaveLength(1);
    expect(rig.queue.entries).toHaveLength(3);

    // Longer than the backoff's cap (the buffer interval): the wait is the collector's, not ours.
    expect(await untilNextSend(RETRY_AFTER_MS * 2)).toBeGreaterThanOrEqual(RETRY_AFTER_MS);
    expect(sends()).toHaveLength(2);
    expect(rig.queue.entries).toHaveLength(3);

    expect(await untilNextSend(RETRY_AFTER_MS * 2)).toBeGreaterThanOrEqual(RETRY_AFTER_MS);
    expect(sends().map((s) => (s.body as TrackInfoBody).batchCount)).toEqual([3, 3, 3]);
    expect(rig.queue.entries).toHaveLength(0);
    // Not reported to the message endpoint: that would add to the load the collector asked to shed.
    expect(rig.calls.some((c) => c.path === TRACKING_PATHS.message)).toBe(false);
  });

  it('over budget for many windows: the entries stay queued through every refusal', async () => {
    rig.handler = (path) => (path === TRACKING_PATHS.trackInfo ? overBudget(5000) : ok(path));
    await leaderWith(4);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs * 10);
    expect(sends().length).toBeGreaterThanOrEqual(5);
    expect(rig.queue.entries).toHaveLength(4);
  });

  it('the browser coming back online does not cut a Retry-After short', async () => {
    let refusals = 0;
    rig.handler = (path) => (path === TRACKING_PATHS.trackInfo && refusals++ < 1 ? overBudget() : ok(path));
    const engine = await leaderWith(2);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs);
    expect(sends()).toHaveLength(1);
    await engine.online();
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_MS - 1000);
    expect(sends()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_MS * (1 + TRACKING_RETRY.jitter));
    expect(sends()).toHaveLength(2);
    expect(rig.queue.entries).toHaveLength(0);
  });

  it('access_token over budget: the token is asked for again no sooner than Retry-After, and the entries wait for it', async () => {
    let refusals = 0;
    rig.handler = (path) => (path === TRACKING_PATHS.accessToken && refusals++ < 1 ? overBudget() : ok(path));
    // A full batch is sent at once, so the token is asked for now.
    await leaderWith(TRACKING.batchSize);
    const tokenCalls = () => rig.calls.filter((c) => c.path === TRACKING_PATHS.accessToken).length;
    expect(tokenCalls()).toBe(1);
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_MS - 1000);
    expect(tokenCalls()).toBe(1);
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_MS);
    expect(tokenCalls()).toBe(2);
    expect(sends()).toHaveLength(1);
    expect(rig.queue.entries).toHaveLength(0);
  });

  it('Retry-After: seconds or an HTTP date, never negative, capped; missing or unreadable is 0 (the backoff applies)', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 01 Jan 2025 00:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(String(10 ** 9), now)).toBe(TRACKING_RETRY.retryAfterMaxMs);
    expect(retryAfterMs(null, now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBe(0);
  });
});
