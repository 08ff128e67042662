// Fake-timer tests of the worker engine's queue and batches, one per rule of SPEC.md §4 and §9.
import { describe, expect, it, vi } from 'vitest';
import { TRACKING, TRACKING_PATHS } from '../product-rules';
import { randomQueueId, splitSealed } from './batch';
import { TrackingEngine } from './engine';
import { AK, entries, leaderWith, makeEngine, ok, rig, sends, transport, useEngineRig } from './engine.fixtures';
import type { TrackInfoBody } from './types';

useEngineRig();

describe('tracking engine rules', () => {
  it('config locking: the config is locked after a successful init and later inits are ignored (SPEC.md §4)', () => {
    const engine = new TrackingEngine({
      transport: transport(),
      queue: rig.queue,
      cache: rig.queue,
      appInfo: { appVersion: '1', deviceId: 'd', platform: 'p', platformVersion: 'v' },
    });
    expect(engine.init({ appKey: '' })).toBe(false);
    expect(engine.lockedConfig).toBeNull();
    expect(engine.init({ appKey: 'first' })).toBe(true);
    expect(engine.init({ appKey: 'second', immediateReport: true })).toBe(false);
    expect(engine.lockedConfig?.appKey).toBe('first');
    expect(engine.batchSize).toBe(TRACKING.batchSize);
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
    rig.handler = (path) =>
      path === TRACKING_PATHS.trackConfig
        ? { code: 0, msg: 'ok', data: { ak: AK, batchSize: 50, bufferS: 3 } }
        : ok(path);
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
    rig.handler = (path) =>
      path === TRACKING_PATHS.trackConfig
        ? { code: 0, msg: 'ok', data: { ak: AK, batchSize: 100, bufferS: 20 } }
        : ok(path);
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
    await rig.queue.add(entries(3, 'closed-tab'));
    await engine.setLeader(true);
    expect(sends()).toHaveLength(1);
    expect(rig.queue.entries).toHaveLength(0);
  });

  it('only the leader sends; after a send the entries are removed and other tabs notified (SPEC.md §4)', async () => {
    const notices: unknown[] = [];
    const engine = makeEngine({}, (n) => notices.push(n));
    await engine.enqueue(entries(25));
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs * 3);
    expect(sends()).toHaveLength(0);
    await engine.setLeader(true);
    expect(rig.queue.entries).toHaveLength(0);
    expect(notices).toContainEqual({ type: 'enqueued', count: 25 });
    expect(notices.filter((n) => (n as { type: string }).type === 'sent')).toHaveLength(2);
  });

  it("page-leave seals: one tab's entries sealed under the beacon limit, never in plaintext", async () => {
    const engine = makeEngine();
    expect(await engine.sealForTab('t1')).toEqual([]);
    await engine.ensureSession();
    await rig.queue.add(entries(3, 't1'));
    await rig.queue.add(entries(2, 'other'));
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
