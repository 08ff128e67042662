// Provider webhooks wake the job they announce: the adapter then reads the result from the provider itself (never
// trusts the hook body).
import { PROVIDER_RETRY } from '../../../src/lib/product-rules';

type Waiter = () => void;
const waiters = new Map<string, Set<Waiter>>();
/** Hooks nobody was waiting for (the poller was reading the status at that moment): key → when to forget it. */
const unclaimed = new Map<string, number>();

function remember(key: string, now: number): void {
  unclaimed.delete(key);
  unclaimed.set(key, now + PROVIDER_RETRY.hookMemoryMs);
  // Insertion order is age order: drop expired and, past the cap, the oldest.
  for (const [k, until] of unclaimed) {
    if (until > now && unclaimed.size <= PROVIDER_RETRY.hookMemoryMaxKeys) break;
    unclaimed.delete(k);
  }
}

function claim(key: string, now: number): boolean {
  const until = unclaimed.get(key);
  if (until === undefined) return false;
  unclaimed.delete(key);
  return until > now;
}

/** Called by the webhook route: wakes whoever follows job `key` (engine/taskId); true when someone was waiting. */
export function notifyHook(key: string, now = Date.now()): boolean {
  const set = waiters.get(key);
  if (!set) {
    remember(key, now);
    return false;
  }
  for (const w of set) w();
  return true;
}

/** Sleeps up to `ms`, or less when the job's webhook arrives first (or arrived since the last wait). */
export function waitForHook(key: string, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (claim(key, Date.now())) return resolve();
    const set = waiters.get(key) ?? new Set<Waiter>();
    waiters.set(key, set);
    const stop = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      set.delete(done);
      if (set.size === 0) waiters.delete(key);
    };
    const done = () => {
      stop();
      resolve();
    };
    const onAbort = () => {
      stop();
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const timer = setTimeout(done, ms);
    set.add(done);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
