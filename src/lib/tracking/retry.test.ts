// Fake-timer tests of failed tracking sends: the backoff, the network coming back, one retry for a refused batch
// (SPEC.md §8).
import { describe, expect, it, vi } from 'vitest';
import { TRACKING, TRACKING_PATHS, TRACKING_RETRY } from '../product-rules';
import { entries, leaderWith, makeEngine, ok, rig, sends, useEngineRig } from './engine.fixtures';
import { retryDelay } from './retry';
import { NetworkError } from './credentials';
import type { TrackInfoBody } from './types';

useEngineRig();

describe('tracking retries', () => {
  it('retry: a failed send is tried again about 1 s later, not after the 20 s buffer interval, and the rest of the queue follows at once', async () => {
    let failures = 0;
    rig.handler = (path) => {
      if (path === TRACKING_PATHS.trackInfo && failures < 1) {
        failures++;
        throw new NetworkError('flaky');
      }
      return ok(path);
    };
    const engine = await leaderWith(2);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs);
    expect(sends()).toHaveLength(1);
    // Entries reported during the outage wait behind the failed batch, none sent while the retry waits.
    await engine.enqueue(entries(25));
    expect(sends()).toHaveLength(1);
    const first = TRACKING_RETRY.firstDelayMs;
    await vi.advanceTimersByTimeAsync(first * (1 - TRACKING_RETRY.jitter) - 1);
    expect(sends()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(first * 2 * TRACKING_RETRY.jitter + 1);
    // The retried batch, then everything queued behind it, without waiting for a tick.
    expect(sends().map((s) => (s.body as TrackInfoBody).batchCount)).toEqual([2, 2, 20, 5]);
    expect(rig.queue.entries).toHaveLength(0);
  });

  it('retry backoff: 1 s, 2 s, 4 s … capped at the buffer interval, ±20 % (TRACKING_RETRY)', async () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => retryDelay(n, 20_000, () => 0.5))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 20_000, 20_000,
    ]);
    expect(retryDelay(0, 20_000, () => 0)).toBe(800);
    expect(retryDelay(0, 20_000, () => 1)).toBe(1200);
    // Never later than the buffer interval: SPEC.md §8's "after the buffer interval" is the slowest case.
    expect(retryDelay(8, 20_000, () => 1)).toBe(20_000);
    expect(retryDelay(0, 300, () => 0.5)).toBe(300);

    rig.handler = (path) => {
      if (path === TRACKING_PATHS.trackInfo) throw new NetworkError('down');
      return ok(path);
    };
    const engine = makeEngine();
    await engine.ensureSession();
    await engine.setLeader(true);
    await engine.enqueue(entries(20));
    // A full batch goes at once and fails; each later send is a retry.
    expect(sends()).toHaveLength(1);
    const times = [Date.now()];
    const seen = () => sends().length;
    for (let i = 0; i < 6; i++) {
      const before = seen();
      while (seen() === before) await vi.advanceTimersByTimeAsync(50);
      times.push(Date.now());
    }
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    const expected = [1000, 2000, 4000, 8000, 16_000, 20_000];
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(expected[i]! * (1 - TRACKING_RETRY.jitter) - 50);
      expect(gap).toBeLessThanOrEqual(Math.min(expected[i]! * (1 + TRACKING_RETRY.jitter), TRACKING.bufferMs) + 50);
    });
    expect(rig.queue.entries).toHaveLength(20);
  });

  it('online: the browser coming back online sends at once what waited out the outage', async () => {
    let down = true;
    rig.handler = (path) => {
      if (down) throw new NetworkError('offline');
      return ok(path);
    };
    const engine = makeEngine();
    await engine.setLeader(true);
    await engine.enqueue(entries(20));
    // Token fetch, then sends, fail for a while: the retry wait has grown to several seconds.
    await vi.advanceTimersByTimeAsync(6000);
    const tries = rig.calls.filter((c) => c.path === TRACKING_PATHS.accessToken).length;
    expect(tries).toBeGreaterThanOrEqual(3);
    down = false;
    await engine.online();
    await vi.advanceTimersByTimeAsync(0);
    expect(sends()).toHaveLength(1);
    expect(rig.queue.entries).toHaveLength(0);
    // With nothing waiting, online flushes what is queued right away (no batch full, no tick due).
    await engine.enqueue(entries(3));
    expect(sends()).toHaveLength(1);
    await engine.online();
    expect(sends().map((s) => (s.body as TrackInfoBody).batchCount)).toEqual([20, 3]);
  });

  it('retry once: a batch the collector refuses twice is dropped and reported, not retried forever', async () => {
    rig.handler = (path) => (path === TRACKING_PATHS.trackInfo ? { code: 40007, msg: 'entries[0] bad' } : ok(path));
    await leaderWith(1);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs * 2);
    expect(sends()).toHaveLength(2);
    expect(rig.queue.entries).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs * 3);
    expect(sends()).toHaveLength(2);
  });
});
