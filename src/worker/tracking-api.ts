// The API a tab's tracking worker exposes over Comlink: it wires the engine to IndexedDB, Web Locks and BroadcastChannel.
import { TrackingEngine, type EngineFlags, type Transport } from '../lib/tracking/engine';
import type { IdbQueue } from '../lib/tracking/idb-queue';
import { holdLeadership, type LockRequester } from '../lib/tracking/leader';
import type { AppInfo, Notice, QueuedEntry, TrackerInit } from '../lib/tracking/types';
import { TRACKING_BROWSER } from '../lib/spec/tracking';

export interface WorkerDeps {
  openQueue(): Promise<IdbQueue>;
  transport: Transport;
  locks: LockRequester;
  /** A BroadcastChannel on TRACKING_BROWSER.channel (one per worker). */
  channel: Pick<BroadcastChannel, 'postMessage' | 'addEventListener' | 'close'>;
}

export interface WorkerStatus {
  leader: boolean;
  queued: number;
  flags: EngineFlags;
}

/** How long reseals wait for more changes, so a burst of reports costs one encryption. */
const RESEAL_DEBOUNCE_MS = 150;

export function createTrackingWorker(deps: WorkerDeps) {
  let engine: TrackingEngine | null = null;
  let queue: IdbQueue | null = null;
  let tab = '';
  let onSealed: ((bodies: string[]) => void) | null = null;
  let resealTimer: ReturnType<typeof setTimeout> | null = null;
  let release: (() => void) | null = null;

  const reseal = () => {
    if (resealTimer) clearTimeout(resealTimer);
    resealTimer = setTimeout(() => {
      resealTimer = null;
      if (!engine || !onSealed) return;
      engine
        .sealForTab(tab)
        .then((bodies) => onSealed?.(bodies))
        .catch(() => {});
    }, RESEAL_DEBOUNCE_MS);
  };

  const api = {
    /** Starts the engine once; later calls answer false (SPEC.md §4 config lock). */
    async start(config: TrackerInit, appInfo: AppInfo, tabId: string, sealed?: (bodies: string[]) => void): Promise<boolean> {
      if (engine) return false;
      queue = await deps.openQueue();
      const candidate = new TrackingEngine({
        transport: deps.transport,
        queue,
        cache: queue,
        appInfo,
        notify: (notice: Notice) => {
          deps.channel.postMessage(notice);
          if (notice.type === 'sent') reseal();
        },
      });
      if (!candidate.init(config)) return false;
      engine = candidate;
      tab = tabId;
      onSealed = sealed ?? null;
      deps.channel.addEventListener('message', (event: MessageEvent<Notice>) => {
        const notice = event.data;
        if (notice?.type === 'sent') reseal();
        if (notice?.type === 'enqueued' || notice?.type === 'sent') void candidate.onNotice(notice);
      });
      release = holdLeadership(deps.locks, TRACKING_BROWSER.leaderLock, (leader) => void candidate.setLeader(leader));
      // Every tab needs a session: the leader to send, the others to seal their page-leave beacons.
      void candidate.ensureSession().then(reseal);
      return true;
    },

    async enqueue(entries: QueuedEntry[]): Promise<void> {
      if (!engine) throw new Error('tracking worker not started');
      await engine.enqueue(entries.map((entry) => ({ ...entry, tab: entry.tab || tab })));
      reseal();
    },

    /** Sends what is queued now if this tab leads (used by tests and the bench). */
    async flush(): Promise<void> {
      await engine?.flush();
    },

    async status(): Promise<WorkerStatus> {
      return {
        leader: engine?.isLeader ?? false,
        queued: queue ? await queue.count() : 0,
        flags: engine ? { ...engine.flags } : { tokenValid: false, configValid: false, appKeyValid: true, requesting: false },
      };
    },

    /** Gives up leadership and stops (pagehide): a held lock would keep the page out of the back/forward cache. */
    stop(): void {
      release?.();
      release = null;
      engine?.stopTimer();
      deps.channel.close();
    },
  };
  return api;
}

export type TrackingWorkerApi = ReturnType<typeof createTrackingWorker>;
