// Browser-only, loaded lazily: starts this tab's dedicated tracking worker and wraps it with Comlink.
import { proxy, wrap } from 'comlink';
import type { TrackingWorkerApi } from './types';
import type { WorkerHandle } from './tracker';

export function connectWorker(): Promise<WorkerHandle> {
  // The URL is written inline so Vite bundles the worker as its own module chunk.
  const worker = new Worker(new URL('../../worker/tracking.worker.ts', import.meta.url), { type: 'module' });
  const api = wrap<TrackingWorkerApi>(worker);
  return Promise.resolve({
    start: (config, tab, onSealed) => api.start(config, tab, proxy(onSealed)),
    enqueue: (entries) => api.enqueue(entries),
    adopt: (stash) => api.adopt(stash),
    online: () => api.online(),
    status: () => api.status(),
    close: () => worker.terminate(),
  });
}
