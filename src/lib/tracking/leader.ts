// Leader election across tabs with Web Locks: exactly one worker holds the lock and sends; the next waiter takes over.
export interface LockRequester {
  request(
    name: string,
    options: { signal?: AbortSignal },
    callback: (lock: unknown) => Promise<void>,
  ): Promise<unknown>;
}

/**
 * Waits for the named lock and holds it until release() (or until the worker dies, which the browser treats
 * as a release: that is how a crashed or closed leader's tab hands over). onChange(true) runs on winning it.
 */
export function holdLeadership(locks: LockRequester, name: string, onChange: (leader: boolean) => void): () => void {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const controller = new AbortController();
  let leader = false;
  locks
    .request(name, { signal: controller.signal }, async () => {
      leader = true;
      onChange(true);
      await held;
    })
    // An aborted wait (released before winning) rejects; that is the expected way out.
    .catch(() => {});
  return () => {
    controller.abort();
    release();
    if (leader) onChange(false);
    leader = false;
  };
}
