// Provider webhooks wake the job they announce: the adapter then reads the result from the provider itself (never trusts the hook body).
type Waiter = () => void;
const waiters = new Map<string, Set<Waiter>>();

/** Called by the webhook route: wakes whoever follows job `key` (engine/taskId). */
export function notifyHook(key: string): boolean {
  const set = waiters.get(key);
  if (!set) return false;
  for (const w of set) w();
  return true;
}

/** Sleeps up to `ms`, or less when the job's webhook arrives first. */
export function waitForHook(key: string, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const set = waiters.get(key) ?? new Set<Waiter>();
    waiters.set(key, set);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      set.delete(done);
      if (set.size === 0) waiters.delete(key);
      resolve();
    };
    const onAbort = () => {
      done();
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const timer = setTimeout(done, ms);
    set.add(done);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
