// The API a tab's tracking worker exposes over Comlink: it wires the engine to IndexedDB, Web Locks and
// BroadcastChannel.
import { TrackingEngine } from '../lib/tracking/engine';
import type { Transport } from '../lib/tracking/credentials';
import type { IdbQueue } from '../lib/tracking/idb-queue';
import { holdLeadership, type LockRequester } from '../lib/tracking/leader';
import type {
  AppInfo,
  Notice,
  QueuedEntry,
  Sealed,
  TrackerInit,
  TrackingWorkerApi,
  WorkerStatus,
} from '../lib/tracking/types';
import { TRACKING_BROWSER, TRACKING_LIMITS, TRACKING_PATHS, isMobileUserAgent } from '../lib/product-rules';

export interface WorkerDeps {
  openQueue(): Promise<IdbQueue>;
  transport: Transport;
  locks: LockRequester;
  /** A BroadcastChannel on TRACKING_BROWSER.channel (one per worker). */
  channel: Pick<BroadcastChannel, 'postMessage' | 'addEventListener' | 'close'>;
  /** The browser's user agent (a worker's navigator has it too, so the page stub need not ship this logic). */
  userAgent: string;
}

/**
 * SPEC.md §3 app info: the app version, the device id, and the platform read from the user agent (§5 "Mobile is
 * detected by user-agent keywords").
 */
export function appInfo(appVersion: string, deviceId: string, userAgent: string): AppInfo {
  return {
    appVersion,
    deviceId,
    platform: isMobileUserAgent(userAgent) ? 'mobile-web' : 'pc-web',
    platformVersion: userAgent.slice(0, TRACKING_LIMITS.fieldMaxLength),
  };
}

/** How long reseals wait for more changes, so a burst of reports costs one encryption. */
const RESEAL_DEBOUNCE_MS = 150;

export function createTrackingWorker(deps: WorkerDeps): TrackingWorkerApi {
  let engine: TrackingEngine | null = null;
  let queue: IdbQueue | null = null;
  let tab = '';
  let deviceId = '';
  let onSealed: Sealed | null = null;
  let resealTimer: ReturnType<typeof setTimeout> | null = null;
  let release: (() => void) | null = null;

  const reseal = () => {
    if (resealTimer) clearTimeout(resealTimer);
    resealTimer = setTimeout(() => {
      resealTimer = null;
      const current = engine;
      if (!current || !onSealed) return;
      current
        .sealForTab(tab)
        .then((bodies) => onSealed?.(bodies, current.url(TRACKING_PATHS.trackInfo)))
        .catch(() => {});
    }, RESEAL_DEBOUNCE_MS);
  };

  const api: TrackingWorkerApi = {
    /** Starts the engine once; later calls answer false (SPEC.md §4 config lock). */
    async start(config: TrackerInit, tabId: string, sealed?: Sealed): Promise<boolean> {
      if (engine) return false;
      queue = await deps.openQueue();
      deviceId = await queue.deviceId();
      const candidate = new TrackingEngine({
        transport: deps.transport,
        queue,
        cache: queue,
        appInfo: appInfo(config.appVersion ?? '1', deviceId, deps.userAgent),
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

    /**
     * Resolves as soon as the entries are durable in the shared queue, before any send: until then the page keeps them
     * and stashes them on leave, so the shorter that window, the fewer entries a closing tab must stash.
     */
    async enqueue(entries: QueuedEntry[]): Promise<void> {
      if (!engine) throw new Error('tracking worker not started');
      const current = engine;
      if (await current.store(entries.map((entry) => ({ ...entry, tab: entry.tab || tab })))) {
        current.afterStore().catch(() => {});
      }
      reseal();
    },

    /**
     * Takes over a stash, the JSON text a closing tab left in localStorage with the entries its worker had not stored.
     * Anything that is not an array of entries is ignored; resolves once the entries are stored, so the page may delete
     * it.
     */
    async adopt(stash: string): Promise<void> {
      let list: unknown;
      try {
        list = JSON.parse(stash);
      } catch {
        return;
      }
      if (!Array.isArray(list)) return;
      await api.enqueue(
        list.filter((e: QueuedEntry | null) => typeof e?.entryId === 'string' && typeof e.oid === 'string'),
      );
    },
    /**
     * The page saw the browser's `online` event: a waiting retry runs now. The page relays it because Chromium fires
     * `online` on pages only, never in workers (checked in Chromium with the network switched off and on).
     */
    async online(): Promise<void> {
      await engine?.online();
    },

    /** Sends what is queued now if this tab leads (used by tests and the bench). */
    async flush(): Promise<void> {
      await engine?.flush();
    },

    async status(): Promise<WorkerStatus> {
      return {
        deviceId,
        leader: engine?.isLeader ?? false,
        queued: queue ? await queue.count() : 0,
        flags: engine
          ? { ...engine.flags }
          : { tokenValid: false, configValid: false, appKeyValid: true, requesting: false },
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
