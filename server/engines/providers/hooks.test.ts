// Webhook wake-ups: a waiting poller is woken, a hook that lands between two polls is kept briefly for the next wait.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROVIDER_RETRY } from '../../../src/lib/product-rules';
import { notifyHook, waitForHook } from './hooks';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Whether the wait has resolved once pending microtasks ran, without moving the clock. */
async function settledWithoutTime(p: Promise<void>): Promise<boolean> {
  let settled = false;
  void p.then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(0);
  return settled;
}

describe('provider webhook wake-ups', () => {
  it('a hook wakes the poller that waits for its job, and only that one', async () => {
    const signal = new AbortController().signal;
    const mine = waitForHook('fal/a', 60_000, signal);
    const other = waitForHook('fal/b', 60_000, signal);
    expect(notifyHook('fal/a')).toBe(true);
    expect(await settledWithoutTime(mine)).toBe(true);
    expect(await settledWithoutTime(other)).toBe(false);
    expect(notifyHook('fal/b')).toBe(true);
    await other;
  });

  it('a hook that arrives while nobody waits makes the next wait for that job return at once', async () => {
    expect(notifyHook('fal/between-polls')).toBe(false);
    expect(await settledWithoutTime(waitForHook('fal/between-polls', 60_000, new AbortController().signal))).toBe(true);
    // Claimed once: the wait after it sleeps again.
    expect(await settledWithoutTime(waitForHook('fal/between-polls', 60_000, new AbortController().signal))).toBe(
      false,
    );
  });

  it('an unclaimed hook is forgotten after the memory time', async () => {
    notifyHook('fal/stale', Date.now() - PROVIDER_RETRY.hookMemoryMs - 1);
    const wait = waitForHook('fal/stale', 5_000, new AbortController().signal);
    expect(await settledWithoutTime(wait)).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
    await wait;
  });

  it('an aborted wait rejects with the reason', async () => {
    const controller = new AbortController();
    const wait = waitForHook('fal/aborted', 60_000, controller.signal);
    controller.abort(new Error('task canceled'));
    await expect(wait).rejects.toThrow('task canceled');
  });
});
