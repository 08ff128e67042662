// The main-thread tracking stub: validates and builds entries, hands them to the worker after idle, beacons on leave.
// Every byte here loads on every page (target ≤ 3 KB gzip with all it imports, bench/tracking.mjs): it imports plain
// values and the tracking rules only, and leaves the rest (device id, platform, sealing, stash parsing, sending) to the
// worker.
import {
  FROM_STORAGE_KEY,
  USER_ID_STORAGE_KEY,
  LOGMAP_MAX_BYTES,
  PERF_SAMPLE_RATE,
  STASH_PREFIX,
  initOptionsFault,
  isValidAction,
  isValidEventId,
  isValidLogmap,
  TRACKING_ACTIONS,
  type TrackingAction,
  TRACKING_WARNINGS,
} from '../product-rules';
import { createEntryFactory, randomHex } from './entry';
import type { QueuedEntry, TrackerInit, WorkerStatus } from './types';

/** The worker as the stub sees it (Comlink-wrapped in the browser, a local fake in tests). */
export interface WorkerHandle {
  /** onSealed receives this tab's unsent entries as sealed beacon bodies, and the URL to send them to. */
  start(config: TrackerInit, tab: string, onSealed: (bodies: string[], url: string) => void): Promise<boolean>;
  /** Resolves once the entries are stored in the shared queue (durable), not when they are sent. */
  enqueue(entries: QueuedEntry[]): Promise<void>;
  /** Stores the entries of a stash (the JSON text a closing tab left); resolves once they are durable. */
  adopt(stash: string): Promise<void>;
  status(): Promise<WorkerStatus>;
  /** The browser is back online: a send waiting out a failure goes now. */
  online(): Promise<void>;
  /** Ends the worker, which also releases its leader lock. */
  close(): void;
}

export interface TrackEvent {
  id: string;
  action: string;
  logmap?: Record<string, unknown>;
}

export interface TrackerEnv {
  connect(): Promise<WorkerHandle>;
  /** Runs work when the page is idle (requestIdleCallback in the browser). */
  idle(run: () => void): void;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;
  /**
   * Calls the listener whenever another tab changes storage (the `storage` event). A closing tab stashes what its
   * worker had not stored yet; the tabs still open adopt the stash at once, since they may be the last ones.
   */
  onStorage(listener: () => void): void;
  sendBeacon(url: string, body: string): boolean;
  now?: () => number;
  warn?: (message: string) => void;
}

export function createTracker(env: TrackerEnv) {
  const now = env.now ?? Date.now;
  const warn = env.warn ?? console.warn;
  const { storage } = env;
  const tab = randomHex(8);
  const make = createEntryFactory(now);
  /** Entries the worker has not yet confirmed as stored in the shared queue (stashed on page leave). */
  const pending = new Set<QueuedEntry>();
  /** Pending entries not yet handed to the current worker. */
  let outbox: QueuedEntry[] = [];
  let config: TrackerInit | null = null;
  let handle: WorkerHandle | null = null;
  let connecting: Promise<WorkerHandle | null> | null = null;
  let sealed: string[] = [];
  let beaconUrl = '';
  let startedAt = now();
  /**
   * Stay time was reported since the page was last shown: pagehide and visibilitychange both end a stay, in either
   * order.
   */
  let stayed = false;
  let flushQueued = false;
  let connectQueued = false;
  /** The signed-in user as read by the current task's first report: a localStorage read per task, not per report. */
  let uid: string | null = null;

  const read = (key: string): string => storage.getItem(key) ?? '';

  /** Creates the worker on first need and hands it stashed and pending entries. */
  function connect(): Promise<WorkerHandle | null> {
    return (connecting ??= (async () => {
      try {
        const worker = await env.connect();
        if (await worker.start(config!, tab, (bodies, url) => ((sealed = bodies), (beaconUrl = url)))) {
          handle = worker;
          adoptStashes();
          flush();
          return worker;
        }
        worker.close();
      } catch {
        connecting = null;
      }
      return null;
    })());
  }

  /**
   * Hands every stash (entries a closing tab's worker had not stored) to this tab's worker, and deletes each once
   * stored. Runs when the worker starts and whenever another tab writes a stash. Two tabs may adopt the same stash: the
   * queue is keyed by entry id and the collector drops ids it holds, so that costs a resend at most, never an event.
   */
  function adoptStashes(): void {
    for (let i = storage.length; handle && i-- > 0;) {
      const key = storage.key(i);
      if (key?.startsWith(STASH_PREFIX))
        handle.adopt(read(key)).then(
          () => storage.removeItem(key),
          () => {},
        );
    }
  }

  // Any change by another tab rescans: storage events are rare, and a scan reads only the keys.
  env.onStorage(adoptStashes);

  /** Starts the worker when the page is next idle: one idle callback however many reports come before it. */
  function wake(): void {
    if (connectQueued) return;
    connectQueued = true;
    env.idle(() => ((connectQueued = false), void connect()));
  }

  /**
   * Once per task: hands the outbox to the worker in one message (entries stay pending until stored); the next task
   * reads the user again.
   */
  function flush(): void {
    if (flushQueued) return;
    flushQueued = true;
    queueMicrotask(() => {
      flushQueued = false;
      uid = null;
      const batch = outbox;
      if (!handle || batch.length === 0) return;
      outbox = [];
      handle.enqueue(batch).then(
        () => batch.forEach((e) => pending.delete(e)),
        () => outbox.push(...batch),
      );
    });
  }

  const tracker = {
    tab,
    /** SPEC.md §4: locked after the first successful init; later calls are ignored. */
    init(options: TrackerInit): boolean {
      if (config) return false;
      const fault = initOptionsFault(options);
      if (fault) return (warn(TRACKING_WARNINGS[fault]), false);
      config = { ...options };
      wake();
      return true;
    },

    /**
     * Validates an event (SPEC.md §5), queues it and returns its entry id; invalid events are dropped with a warning.
     */
    report(event: TrackEvent): string | null {
      if (!config) return (warn(TRACKING_WARNINGS.appKey), null);
      const prefix = config.logPrefix;
      const logmap = { ...config.baseLogmap, ...event?.logmap };
      // The limit is in UTF-8 bytes, as the collector counts it: "é" is one UTF-16 unit of .length but two bytes.
      const problem = !isValidEventId(event?.id, prefix)
        ? TRACKING_WARNINGS.eventId
        : !isValidAction(event.action)
          ? TRACKING_WARNINGS.action
          : (event.logmap !== undefined && !isValidLogmap(event.logmap)) ||
              new TextEncoder().encode(JSON.stringify(logmap)).length > LOGMAP_MAX_BYTES
            ? TRACKING_WARNINGS.logmap
            : '';
      if (problem) return (warn(problem), null);
      // Only the work a report cannot put off runs here (report() is on the page's main thread): the user is read
      // and the worker messaged once per task (flush), the worker started once per idle period (wake).
      const entry = make({
        oid: prefix ? `${prefix}_${event.id}` : event.id,
        action: TRACKING_ACTIONS[event.action as TrackingAction],
        logmap,
        uid: (uid ??= read(USER_ID_STORAGE_KEY)),
      }) as QueuedEntry;
      entry.tab = tab;
      pending.add(entry);
      outbox.push(entry);
      flush();
      if (!handle) wake();
      return entry.entryId;
    },

    /** SPEC.md §2: a page view is reported when the page is flagged and a referrer source exists. */
    reportPageView(path: string, referrer: string): string | null {
      const source = referrer || read(FROM_STORAGE_KEY);
      return source
        ? tracker.report({ id: builtinId('page_view'), action: 'show', logmap: { path, referrer: source } })
        : null;
    },

    /**
     * SPEC.md §4: stay time since the page was shown (or last became visible), once per stay: the page calls it on
     * pagehide and on visibilitychange(hidden), and browsers fire those in either order (Chromium: pagehide first).
     */
    reportStay(path: string): string | null {
      if (stayed) return null;
      stayed = true;
      return tracker.report({
        id: builtinId('page_stay'),
        action: 'stay',
        logmap: { path, stayMs: now() - startedAt },
      });
    },

    /** SPEC.md §4: visible again → the start time is reset and a new stay begins. */
    resetStart(): void {
      startedAt = now();
      stayed = false;
    },

    /**
     * Page leave (SPEC.md §4): beacons this tab's unsent entries, already sealed by the worker, and stashes what
     * the worker has not confirmed, for the tabs still open (or the next one). Never plaintext on the wire.
     */
    reportLeft(): void {
      // A refused beacon (over the browser's in-flight limit) is no loss: its entries are in the shared queue.
      for (const body of sealed) env.sendBeacon(beaconUrl, body);
      if (pending.size > 0) {
        try {
          storage.setItem(STASH_PREFIX + tab, JSON.stringify([...pending]));
        } catch {
          // Storage full or blocked: the worker may still have stored them; nothing better is possible here.
        }
      }
    },

    /**
     * The page's `online` event, passed to the worker (Chromium fires none in workers): what waited out an outage goes
     * now.
     */
    online(): void {
      void handle?.online();
    },

    /** Ends the worker (pagehide) so no lock is held while the page sits in the back/forward cache. */
    suspend(): void {
      handle?.close();
      handle = connecting = null;
      // What the ended worker had not confirmed goes to the next one (a page restored from the back/forward cache).
      outbox = [...pending];
    },

    /**
     * Connects now (if needed) and answers the worker's status, or null before a successful init; for operators and
     * tests.
     */
    async status(): Promise<WorkerStatus | null | undefined> {
      return config ? (handle ?? (await connect()))?.status() : null;
    },

    pendingCount(): number {
      return pending.size;
    },
  };

  function builtinId(name: string): string {
    // With a prefix the id has 2 segments (SPEC.md §5), without it 3.
    return config?.logPrefix ? name : `web_${name}`;
  }

  return tracker;
}

export type Tracker = ReturnType<typeof createTracker>;

/** SPEC.md §9: the share of page loads that send web-vitals reports. */
export function sampled(random: () => number = Math.random): boolean {
  return random() < PERF_SAMPLE_RATE;
}
