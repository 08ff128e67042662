// Fake-timer tests of the worker engine, one per rule of SPEC.md §4, §8 and §9 and of docs/tracking-protocol.md.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REQUEST, TRACKING } from '../spec/constants';
import { TRACKING_PATHS, TRACKING_RETRY } from '../spec/tracking';
import { NetworkError, randomQueueId, retryDelay, splitSealed, TrackingEngine, type EntryQueue, type SessionCache, type Transport } from './engine';
import type { Answer, QueuedEntry, TrackInfoBody } from './types';

/** In-memory stand-ins for the IndexedDB queue and cache (tests only). */
class MemoryQueue implements EntryQueue, SessionCache {
  entries: QueuedEntry[] = [];
  meta = new Map<string, unknown>();
  async add(list: QueuedEntry[]) {
    for (const e of list) if (!this.entries.some((x) => x.entryId === e.entryId)) this.entries.push(e);
  }
  async peek(limit: number) {
    return this.entries.slice(0, limit);
  }
  async forTab(tab: string, limit: number) {
    return this.entries.filter((e) => e.tab === tab).slice(0, limit);
  }
  async remove(ids: string[]) {
    this.entries = this.entries.filter((e) => !ids.includes(e.entryId));
  }
  async count() {
    return this.entries.length;
  }
  async get(key: string) {
    return this.meta.get(key);
  }
  async set(key: string, value: unknown) {
    this.meta.set(key, value);
  }
  async delete(key: string) {
    this.meta.delete(key);
  }
}

type Handler = (path: string, body: unknown, timeoutMs: number) => Answer | Promise<Answer>;

const AK = 'ab'.repeat(32);
const ok = (path: string): Answer => {
  if (path.endsWith(TRACKING_PATHS.accessToken)) return { code: 0, msg: 'ok', data: { token: 'tok-1', produceId: 'p1', sign: 's1', configVersion: '1' } };
  if (path.endsWith(TRACKING_PATHS.trackConfig)) return { code: 0, msg: 'ok', data: { ak: AK, batchSize: 20, bufferS: 20 } };
  return { code: 0, msg: 'ok' };
};

let calls: Array<{ path: string; body: unknown; timeoutMs: number }>;
let handler: Handler;
let queue: MemoryQueue;
let seq = 0;

function transport(): Transport {
  return {
    post: async <T,>(url: string, body: unknown, timeoutMs: number) => {
      const path = new URL(url, 'http://x').pathname;
      calls.push({ path, body, timeoutMs });
      return (await handler(path, body, timeoutMs)) as Answer<T>;
    },
  };
}

function makeEngine(init: Partial<Parameters<TrackingEngine['init']>[0]> = {}, notify?: (n: unknown) => void) {
  const engine = new TrackingEngine({ transport: transport(), queue, cache: queue, appInfo: { appVersion: '1', deviceId: 'd', platform: 'pc-web', platformVersion: 'x' }, notify });
  engine.init({ appKey: 'k', ...init });
  return engine;
}

/** An engine that is the leader tab, with `count` entries enqueued. */
async function leaderWith(count: number, init: Parameters<typeof makeEngine>[0] = {}) {
  const engine = makeEngine(init);
  await engine.setLeader(true);
  await engine.enqueue(entries(count));
  return engine;
}

function entries(n: number, tab = 't1'): QueuedEntry[] {
  return Array.from({ length: n }, () => {
    seq++;
    return { entryId: `e${seq}`, coldStartId: 'c', seqId: seq, uid: '', time: seq, oid: 'a_b_c', action: 1, foid: '', ffid: '', logmap: {}, tab };
  });
}

const sends = () => calls.filter((c) => c.path === TRACKING_PATHS.trackInfo);
const paths = () => calls.map((c) => c.path);

beforeEach(() => {
  vi.useFakeTimers();
  calls = [];
  handler = ok;
  queue = new MemoryQueue();
});
afterEach(() => vi.useRealTimers());

describe('tracking engine rules', () => {
  it('config locking: the config is locked after a successful init and later inits are ignored (SPEC.md §4)', () => {
    const engine = new TrackingEngine({ transport: transport(), queue, cache: queue, appInfo: { appVersion: '1', deviceId: 'd', platform: 'p', platformVersion: 'v' } });
    expect(engine.init({ appKey: '' })).toBe(false);
    expect(engine.lockedConfig).toBeNull();
    expect(engine.init({ appKey: 'first' })).toBe(true);
    expect(engine.init({ appKey: 'second', immediateReport: true })).toBe(false);
    expect(engine.lockedConfig?.appKey).toBe('first');
    expect(engine.batchSize).toBe(TRACKING.batchSize);
  });

  it('four flags: token valid, config valid, appKey valid and request in progress (SPEC.md §4)', async () => {
    let release!: () => void;
    handler = (path) => (path === TRACKING_PATHS.accessToken ? new Promise((r) => (release = () => r(ok(path)))) : ok(path));
    const engine = makeEngine();
    expect(engine.flags).toEqual({ tokenValid: false, configValid: false, appKeyValid: true, requesting: false });
    const ready = engine.ensureSession();
    expect(engine.flags.requesting).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    release();
    expect(await ready).toBe(true);
    expect(engine.flags).toEqual({ tokenValid: true, configValid: true, appKeyValid: true, requesting: false });
  });

  it('flow: token, then config, then timed batches (SPEC.md §4)', async () => {
    await leaderWith(3);
    expect(sends()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs);
    expect(paths().slice(0, 3)).toEqual([TRACKING_PATHS.accessToken, TRACKING_PATHS.trackConfig, TRACKING_PATHS.trackInfo]);
    expect((calls[0]!.body as Record<string, unknown>).app_key).toBe('k');
    expect(calls[1]!.body).toEqual({ token: 'tok-1', sign: 's1' });
    const body = sends()[0]!.body as TrackInfoBody;
    expect(body).toMatchObject({ token: 'tok-1', produceId: 'p1', batchCount: 3 });
    expect(body.msgEncrypt).not.toContain('a_b_c');
    expect(queue.entries).toHaveLength(0);
  });

  it('token/config cache: a stored token and config are reused while younger than 1.8 h (SPEC.md §4, §9)', async () => {
    const first = makeEngine();
    expect(await first.ensureSession()).toBe(true);
    expect(paths()).toEqual([TRACKING_PATHS.accessToken, TRACKING_PATHS.trackConfig]);
    calls = [];
    vi.advanceTimersByTime(TRACKING.cacheMaxAgeMs - 1000);
    expect(await makeEngine().ensureSession()).toBe(true);
    expect(calls).toHaveLength(0);
    vi.advanceTimersByTime(2000);
    expect(await makeEngine().ensureSession()).toBe(true);
    expect(paths()).toEqual([TRACKING_PATHS.accessToken, TRACKING_PATHS.trackConfig]);
  });

  it('code 40002 re-fetches the token and resends (SPEC.md §8)', async () => {
    let rejected = false;
    handler = (path) => {
      if (path === TRACKING_PATHS.trackInfo && !rejected) {
        rejected = true;
        return { code: 40002, msg: 'token expired' };
      }
      return ok(path);
    };
    await leaderWith(2);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs);
    expect(paths()).toEqual([
      TRACKING_PATHS.accessToken,
      TRACKING_PATHS.trackConfig,
      TRACKING_PATHS.trackInfo,
      TRACKING_PATHS.accessToken,
      TRACKING_PATHS.trackConfig,
      TRACKING_PATHS.trackInfo,
    ]);
    expect(queue.entries).toHaveLength(0);
  });

  it('code 40001 stops polling and marks the key invalid (SPEC.md §8)', async () => {
    handler = (path) => (path === TRACKING_PATHS.accessToken ? { code: 40001, msg: 'appKey error' } : ok(path));
    const engine = await leaderWith(2);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs);
    expect(engine.flags.appKeyValid).toBe(false);
    expect(engine.timerRunning).toBe(false);
    const before = calls.length;
    await engine.enqueue(entries(30));
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs * 5);
    expect(calls.length).toBe(before);
    expect(queue.entries).toHaveLength(32);
  });

  it('other codes and network failures are reported to the message endpoint and the monitoring endpoint (SPEC.md §8)', async () => {
    handler = (path) => {
      if (path === TRACKING_PATHS.trackInfo) throw new NetworkError('offline');
      return ok(path);
    };
    await leaderWith(1);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs);
    const message = calls.find((c) => c.path === TRACKING_PATHS.message);
    const monitor = calls.find((c) => c.path === TRACKING_PATHS.monitor);
    expect(message?.body).toMatchObject({ appKey: 'k', deviceId: 'd', message: expect.stringContaining('offline'), sign: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(message?.timeoutMs).toBe(REQUEST.timeoutMs);
    expect(monitor?.body).toMatchObject({ kind: 'error', message: expect.stringContaining('offline') });
    expect(monitor?.timeoutMs).toBe(TRACKING.monitorTimeoutMs);
    calls = [];
    handler = (path) => (path === TRACKING_PATHS.trackInfo ? { code: 40999, msg: 'odd' } : ok(path));
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs);
    expect(calls.some((c) => c.path === TRACKING_PATHS.message && String((c.body as { message: string }).message).includes('40999'))).toBe(true);
  });

  it('retry: a failed send is tried again about 1 s later, not after the 20 s buffer interval, and the rest of the queue follows at once', async () => {
    let failures = 0;
    handler = (path) => {
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
    expect(queue.entries).toHaveLength(0);
  });

  it('retry backoff: 1 s, 2 s, 4 s … capped at the buffer interval, ±20 % (TRACKING_RETRY)', async () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => retryDelay(n, 20_000, () => 0.5))).toEqual([1000, 2000, 4000, 8000, 16_000, 20_000, 20_000]);
    expect(retryDelay(0, 20_000, () => 0)).toBe(800);
    expect(retryDelay(0, 20_000, () => 1)).toBe(1200);
    // Never later than the buffer interval: SPEC.md §8's "after the buffer interval" is the slowest case.
    expect(retryDelay(8, 20_000, () => 1)).toBe(20_000);
    expect(retryDelay(0, 300, () => 0.5)).toBe(300);

    handler = (path) => {
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
    expect(queue.entries).toHaveLength(20);
  });

  it('online: the browser coming back online sends at once what waited out the outage', async () => {
    let down = true;
    handler = (path) => {
      if (down) throw new NetworkError('offline');
      return ok(path);
    };
    const engine = makeEngine();
    await engine.setLeader(true);
    await engine.enqueue(entries(20));
    // Token fetch, then sends, fail for a while: the retry wait has grown to several seconds.
    await vi.advanceTimersByTimeAsync(6000);
    const tries = calls.filter((c) => c.path === TRACKING_PATHS.accessToken).length;
    expect(tries).toBeGreaterThanOrEqual(3);
    down = false;
    await engine.online();
    await vi.advanceTimersByTimeAsync(0);
    expect(sends()).toHaveLength(1);
    expect(queue.entries).toHaveLength(0);
    // With nothing waiting, online flushes what is queued right away (no batch full, no tick due).
    await engine.enqueue(entries(3));
    expect(sends()).toHaveLength(1);
    await engine.online();
    expect(sends().map((s) => (s.body as TrackInfoBody).batchCount)).toEqual([20, 3]);
  });

  it('retry once: a batch the collector refuses twice is dropped and reported, not retried forever', async () => {
    handler = (path) => (path === TRACKING_PATHS.trackInfo ? { code: 40007, msg: 'entries[0] bad' } : ok(path));
    await leaderWith(1);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs * 2);
    expect(sends()).toHaveLength(2);
    expect(queue.entries).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs * 3);
    expect(sends()).toHaveLength(2);
  });

  it('batch size 20: a full batch is sent at once, 20 entries per request', async () => {
    const engine = await leaderWith(19);
    expect(sends()).toHaveLength(0);
    await engine.enqueue(entries(26));
    expect(sends().map((s) => (s.body as TrackInfoBody).batchCount)).toEqual([20, 20, 5]);
  });

  it('immediate mode: batch size 1, every event is sent at once', async () => {
    const engine = await leaderWith(1, { immediateReport: true });
    await engine.enqueue(entries(1));
    expect(sends().map((s) => (s.body as TrackInfoBody).batchCount)).toEqual([1, 1]);
  });

  it('buffer 20 000 ms by default, and bufferS × 1000 once the config says so (SPEC.md §9)', async () => {
    const engine = makeEngine();
    expect(engine.bufferMs).toBe(20_000);
    handler = (path) => (path === TRACKING_PATHS.trackConfig ? { code: 0, msg: 'ok', data: { ak: AK, batchSize: 50, bufferS: 3 } } : ok(path));
    await engine.ensureSession();
    expect(engine.bufferMs).toBe(3000);
    expect(engine.batchSize).toBe(50);
    await engine.setLeader(true);
    await engine.enqueue(entries(2));
    await vi.advanceTimersByTimeAsync(2999);
    expect(sends()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sends()).toHaveLength(1);
  });

  it('queue cap 100: a queue at the cap is sent without waiting for the timer', async () => {
    handler = (path) => (path === TRACKING_PATHS.trackConfig ? { code: 0, msg: 'ok', data: { ak: AK, batchSize: 100, bufferS: 20 } } : ok(path));
    const engine = makeEngine({ maxQueueLimit: 100 });
    await engine.ensureSession();
    await engine.setLeader(true);
    await engine.enqueue(entries(99));
    expect(sends()).toHaveLength(0);
    await engine.enqueue(entries(1));
    expect(sends().map((s) => (s.body as TrackInfoBody).batchCount)).toEqual([100]);
    expect(engine.queueLimit).toBe(TRACKING.queueLimit);
  });

  it('queueId: a random 9–10 digit queueId per send (SPEC.md §9)', async () => {
    expect(randomQueueId(() => 0)).toBe('100000000');
    expect(randomQueueId(() => 0.999999999999)).toMatch(/^\d{10}$/);
    const engine = makeEngine({ immediateReport: true });
    await engine.setLeader(true);
    for (let i = 0; i < 5; i++) await engine.enqueue(entries(1));
    const ids = sends().map((s) => (s.body as TrackInfoBody).queueId);
    for (const id of ids) expect(id).toMatch(/^\d{9,10}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('stop check: the timer stops 2 s after the queue is found empty and restarts on the next event (SPEC.md §4)', async () => {
    const engine = await leaderWith(1);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs);
    expect(sends()).toHaveLength(1);
    expect(engine.timerRunning).toBe(true);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs); // next tick finds the queue empty
    expect(engine.timerRunning).toBe(true);
    await vi.advanceTimersByTimeAsync(TRACKING.stopCheckDelayMs);
    expect(engine.timerRunning).toBe(false);
    await engine.enqueue(entries(1));
    expect(engine.timerRunning).toBe(true);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs);
    expect(sends()).toHaveLength(2);
  });

  it('takeover: a tab that becomes leader sends what the previous leader left, at once', async () => {
    const engine = makeEngine();
    await queue.add(entries(3, 'closed-tab'));
    await engine.setLeader(true);
    expect(sends()).toHaveLength(1);
    expect(queue.entries).toHaveLength(0);
  });

  it('only the leader sends; after a send the entries are removed and other tabs notified (SPEC.md §4)', async () => {
    const notices: unknown[] = [];
    const engine = makeEngine({}, (n) => notices.push(n));
    await engine.enqueue(entries(25));
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs * 3);
    expect(sends()).toHaveLength(0);
    await engine.setLeader(true);
    expect(queue.entries).toHaveLength(0);
    expect(notices).toContainEqual({ type: 'enqueued', count: 25 });
    expect(notices.filter((n) => (n as { type: string }).type === 'sent')).toHaveLength(2);
  });

  it('page-leave seals: one tab\'s entries sealed under the beacon limit, never in plaintext', async () => {
    const engine = makeEngine();
    expect(await engine.sealForTab('t1')).toEqual([]);
    await engine.ensureSession();
    await queue.add(entries(3, 't1'));
    await queue.add(entries(2, 'other'));
    const bodies = await engine.sealForTab('t1');
    expect(bodies).toHaveLength(1);
    const body = JSON.parse(bodies[0]!) as TrackInfoBody;
    expect(body.batchCount).toBe(3);
    expect(bodies[0]).not.toContain('a_b_c');
  });

  it('beacon split: bodies over the size limit are split until each fits', () => {
    const items = Array.from({ length: 10 }, (_, i) => i);
    const seal = (part: readonly number[]) => 'x'.repeat(part.length * 100);
    const bodies = splitSealed(items, seal, 350);
    expect(bodies.every((b) => b.length <= 350)).toBe(true);
    expect(bodies.join('').length).toBe(1000);
  });
});
