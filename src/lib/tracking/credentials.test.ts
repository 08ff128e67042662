// Fake-timer tests of the tracking session: token, config, their cache and the collector's error codes (SPEC.md §4, §8,
// §9).
import { describe, expect, it, vi } from 'vitest';
import { REQUEST, TRACKING, TRACKING_PATHS } from '../product-rules';
import { entries, leaderWith, makeEngine, ok, paths, rig, sends, useEngineRig } from './engine.fixtures';
import { NetworkError } from './credentials';
import type { TrackInfoBody } from './types';

useEngineRig();

describe('tracking session rules', () => {
  it('four flags: token valid, config valid, appKey valid and request in progress (SPEC.md §4)', async () => {
    let release!: () => void;
    rig.handler = (path) =>
      path === TRACKING_PATHS.accessToken ? new Promise((r) => (release = () => r(ok(path)))) : ok(path);
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
    expect(paths().slice(0, 3)).toEqual([
      TRACKING_PATHS.accessToken,
      TRACKING_PATHS.trackConfig,
      TRACKING_PATHS.trackInfo,
    ]);
    expect((rig.calls[0]!.body as Record<string, unknown>).app_key).toBe('k');
    expect(rig.calls[1]!.body).toEqual({ token: 'tok-1', sign: 's1' });
    const body = sends()[0]!.body as TrackInfoBody;
    expect(body).toMatchObject({ token: 'tok-1', produceId: 'p1', batchCount: 3 });
    expect(body.msgEncrypt).not.toContain('a_b_c');
    expect(rig.queue.entries).toHaveLength(0);
  });

  it('token/config cache: a stored token and config are reused while younger than 1.8 h (SPEC.md §4, §9)', async () => {
    const first = makeEngine();
    expect(await first.ensureSession()).toBe(true);
    expect(paths()).toEqual([TRACKING_PATHS.accessToken, TRACKING_PATHS.trackConfig]);
    rig.calls = [];
    vi.advanceTimersByTime(TRACKING.cacheMaxAgeMs - 1000);
    expect(await makeEngine().ensureSession()).toBe(true);
    expect(rig.calls).toHaveLength(0);
    vi.advanceTimersByTime(2000);
    expect(await makeEngine().ensureSession()).toBe(true);
    expect(paths()).toEqual([TRACKING_PATHS.accessToken, TRACKING_PATHS.trackConfig]);
  });

  it('code 40002 re-fetches the token and resends (SPEC.md §8)', async () => {
    let rejected = false;
    rig.handler = (path) => {
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
    expect(rig.queue.entries).toHaveLength(0);
  });

  it('code 40001 stops polling and marks the key invalid (SPEC.md §8)', async () => {
    rig.handler = (path) => (path === TRACKING_PATHS.accessToken ? { code: 40001, msg: 'appKey error' } : ok(path));
    const engine = await leaderWith(2);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs);
    expect(engine.flags.appKeyValid).toBe(false);
    expect(engine.timerRunning).toBe(false);
    const before = rig.calls.length;
    await engine.enqueue(entries(30));
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs * 5);
    expect(rig.calls.length).toBe(before);
    expect(rig.queue.entries).toHaveLength(32);
  });

  it('other codes and network failures are reported to the message endpoint and the monitoring endpoint (SPEC.md §8)', async () => {
    rig.handler = (path) => {
      if (path === TRACKING_PATHS.trackInfo) throw new NetworkError('offline');
      return ok(path);
    };
    await leaderWith(1);
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs);
    const message = rig.calls.find((c) => c.path === TRACKING_PATHS.message);
    const monitor = rig.calls.find((c) => c.path === TRACKING_PATHS.monitor);
    expect(message?.body).toMatchObject({
      appKey: 'k',
      deviceId: 'd',
      message: expect.stringContaining('offline'),
      sign: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(message?.timeoutMs).toBe(REQUEST.timeoutMs);
    expect(monitor?.body).toMatchObject({ kind: 'error', message: expect.stringContaining('offline') });
    expect(monitor?.timeoutMs).toBe(TRACKING.monitorTimeoutMs);
    rig.calls = [];
    rig.handler = (path) => (path === TRACKING_PATHS.trackInfo ? { code: 40999, msg: 'odd' } : ok(path));
    await vi.advanceTimersByTimeAsync(TRACKING.bufferMs);
    expect(
      rig.calls.some(
        (c) => c.path === TRACKING_PATHS.message && String((c.body as { message: string }).message).includes('40999'),
      ),
    ).toBe(true);
  });
});
