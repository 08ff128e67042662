// The tracking stub's test set-up: tabs with a fake worker, idle callbacks run by hand, a shared in-memory storage.
import { vi } from 'vitest';
import { createTracker, type WorkerHandle } from './tracker';
import type { QueuedEntry } from './types';

export function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    key: (i: number) => [...map.keys()][i] ?? null,
    get length() {
      return map.size;
    },
  };
}

/**
 * One tab: a stub with a fake worker. Tabs made with the same storage share it, as a site's tabs share localStorage.
 */
export function setupTab(storage = memoryStorage(), options: { workerStores?: boolean } = {}) {
  const warnings: string[] = [];
  const beacons: Array<{ url: string; body: string }> = [];
  const enqueued: QueuedEntry[][] = [];
  const storageListeners: Array<() => void> = [];
  const onlines: number[] = [];
  let idleRuns: Array<() => void> = [];
  let onSealed: (bodies: string[], url: string) => void = () => {};
  // A worker that never stores stands for one terminated with its tab before its IndexedDB write committed.
  const enqueue = (list: QueuedEntry[]) => (
    enqueued.push(list),
    options.workerStores === false ? new Promise<void>(() => {}) : Promise.resolve()
  );
  const connect = vi.fn(async (): Promise<WorkerHandle> => ({
    start: async (_c, _t, sealed) => ((onSealed = sealed), true),
    enqueue,
    // The real worker parses and checks the stash (src/worker/tracking-api.ts); this one trusts it.
    adopt: (stash) => enqueue(JSON.parse(stash) as QueuedEntry[]),
    online: async () => void onlines.push(Date.now()),
    status: async () => ({
      deviceId: 'd',
      leader: true,
      queued: 0,
      flags: { tokenValid: true, configValid: true, appKeyValid: true, requesting: false },
    }),
    close: () => {},
  }));
  const tracker = createTracker({
    connect,
    idle: (run) => void idleRuns.push(run),
    storage,
    onStorage: (listener) => void storageListeners.push(listener),
    sendBeacon: (url, body) => (beacons.push({ url, body }), true),
    warn: (m) => void warnings.push(m),
  });
  const runIdle = async () => {
    const runs = idleRuns;
    idleRuns = [];
    runs.forEach((r) => r());
    await new Promise((r) => setTimeout(r, 0));
  };
  /** The browser's `storage` event: another tab changed a key. */
  const storageEvent = async () => {
    storageListeners.forEach((listener) => listener());
    await new Promise((r) => setTimeout(r, 0));
  };
  const idleCount = () => idleRuns.length;
  return {
    tracker,
    storage,
    warnings,
    beacons,
    enqueued,
    onlines,
    connect,
    runIdle,
    idleCount,
    storageEvent,
    seal: (b: string[], url: string) => onSealed(b, url),
  };
}
