// The main-thread tracking stub: validates and builds entries, hands them to the worker after idle, beacons on leave.
import { STORAGE_KEYS, TRACKING } from '../spec/constants';
import { TRACKING_WARNINGS } from '../spec/messages';
import { TRACKING_BROWSER, TRACKING_LIMITS, TRACKING_PATHS } from '../spec/tracking';
import { isMobileUserAgent, isValidAction, isValidAppKey, isValidDomain, isValidEventId, isValidEventPrefix, isValidLogmap, TRACKING_ACTIONS } from '../spec/validation';
import { createEntryFactory, randomHex } from './entry';
import type { AppInfo, QueuedEntry, TrackerInit } from './types';

/** The worker as the stub sees it (Comlink-wrapped in the browser, a local fake in tests). */
export interface WorkerHandle {
  start(config: TrackerInit, appInfo: AppInfo, tab: string, onSealed: (bodies: string[]) => void): Promise<boolean>;
  enqueue(entries: QueuedEntry[]): Promise<void>;
  status(): Promise<unknown>;
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
  sendBeacon(url: string, body: string): boolean;
  userAgent: string;
  now?: () => number;
  warn?: (message: string) => void;
}

export function createTracker(env: TrackerEnv) {
  const now = env.now ?? Date.now;
  const warn = env.warn ?? ((message: string) => console.warn(message));
  const tab = randomHex(8);
  const factory = createEntryFactory(now);
  /** Entries the worker has not yet confirmed as stored in the shared queue. */
  const pending = new Map<string, QueuedEntry>();
  const handed = new Set<string>();
  let config: TrackerInit | null = null;
  let handle: WorkerHandle | null = null;
  let connecting: Promise<WorkerHandle | null> | null = null;
  let sealed: string[] = [];
  let startedAt = now();
  let deliverQueued = false;

  const read = (key: string): string => {
    try {
      return env.storage.getItem(key) ?? '';
    } catch {
      return '';
    }
  };

  function appInfo(): AppInfo {
    let deviceId = read(TRACKING_BROWSER.deviceIdKey);
    if (!deviceId) {
      deviceId = randomHex(16);
      try {
        env.storage.setItem(TRACKING_BROWSER.deviceIdKey, deviceId);
      } catch {
        // Storage may be blocked; a per-page device id still works.
      }
    }
    return {
      appVersion: config?.appVersion ?? '1',
      deviceId,
      platform: isMobileUserAgent(env.userAgent) ? 'mobile-web' : 'pc-web',
      platformVersion: env.userAgent.slice(0, TRACKING_LIMITS.fieldMaxLength),
    };
  }

  /** Creates the worker on first need and hands it stashed and pending entries. */
  function connect(): Promise<WorkerHandle | null> {
    if (!config) return Promise.resolve(null);
    connecting ??= (async () => {
      try {
        const worker = await env.connect();
        const started = await worker.start(config!, appInfo(), tab, (bodies) => (sealed = bodies));
        if (!started) {
          worker.close();
          return null;
        }
        handle = worker;
        drainStashes(worker);
        deliver();
        return worker;
      } catch {
        connecting = null;
        return null;
      }
    })();
    return connecting;
  }

  /** Entries a closed tab could not hand over were stashed in localStorage; any later worker takes them. */
  function drainStashes(worker: WorkerHandle): void {
    const keys: string[] = [];
    for (let i = 0; i < env.storage.length; i++) {
      const key = env.storage.key(i);
      if (key?.startsWith(TRACKING_BROWSER.stashPrefix)) keys.push(key);
    }
    for (const key of keys) {
      let entries: unknown;
      try {
        entries = JSON.parse(read(key));
      } catch {
        entries = null;
      }
      if (!Array.isArray(entries)) {
        env.storage.removeItem(key);
        continue;
      }
      const valid = entries.filter((e: QueuedEntry) => typeof e?.entryId === 'string' && typeof e.oid === 'string');
      void worker.enqueue(valid).then(() => env.storage.removeItem(key), () => {});
    }
  }

  /** Hands pending entries to the worker once per task, so a burst of reports is one message. */
  function deliver(): void {
    if (!handle || deliverQueued) return;
    deliverQueued = true;
    queueMicrotask(() => {
      deliverQueued = false;
      const batch = [...pending.values()].filter((e) => !handed.has(e.entryId));
      if (batch.length === 0 || !handle) return;
      for (const e of batch) handed.add(e.entryId);
      handle.enqueue(batch).then(
        () => batch.forEach((e) => (pending.delete(e.entryId), handed.delete(e.entryId))),
        () => batch.forEach((e) => handed.delete(e.entryId)),
      );
    });
  }

  function collectorUrl(path: string): string {
    return `${(config?.domain ?? '').replace(/\/$/, '')}${path}`;
  }

  const tracker = {
    tab,
    /** SPEC.md §4: locked after the first successful init; later calls are ignored. */
    init(options: TrackerInit): boolean {
      if (config) return false;
      if (!isValidAppKey(options?.appKey)) return warn(TRACKING_WARNINGS.appKey), false;
      if (!isValidDomain(options.domain)) return warn(TRACKING_WARNINGS.domain), false;
      if (!isValidEventPrefix(options.logPrefix)) return warn(TRACKING_WARNINGS.eventPrefix), false;
      if (options.baseLogmap !== undefined && !isValidLogmap(options.baseLogmap)) return warn(TRACKING_WARNINGS.logmap), false;
      config = { ...options };
      env.idle(() => void connect());
      return true;
    },

    /** Validates an event (SPEC.md §5), queues it and returns its entry id; invalid events are dropped with a warning. */
    report(event: TrackEvent): string | null {
      if (!config) return warn(TRACKING_WARNINGS.appKey), null;
      const prefix = config.logPrefix;
      if (!isValidEventId(event?.id, prefix)) return warn(TRACKING_WARNINGS.eventId), null;
      if (!isValidAction(event.action)) return warn(TRACKING_WARNINGS.action), null;
      const logmap = event.logmap ?? {};
      if (!isValidLogmap(logmap)) return warn(TRACKING_WARNINGS.logmap), null;
      const merged = { ...config.baseLogmap, ...logmap };
      if (JSON.stringify(merged).length > TRACKING_LIMITS.logmapMaxBytes) return warn(TRACKING_WARNINGS.logmap), null;
      const entry = factory.make({
        oid: prefix ? `${prefix}_${event.id}` : event.id,
        action: TRACKING_ACTIONS[event.action],
        logmap: merged,
        uid: read(STORAGE_KEYS.userId),
      });
      pending.set(entry.entryId, { ...entry, tab });
      if (handle) deliver();
      else env.idle(() => void connect());
      return entry.entryId;
    },

    /** SPEC.md §2: a page view is reported when the page is flagged and a referrer source exists. */
    reportPageView(path: string, referrer: string): string | null {
      const source = referrer || read(STORAGE_KEYS.from);
      if (!source) return null;
      return tracker.report({ id: builtinId('page_view'), action: 'show', logmap: { path, referrer: source } });
    },

    /** SPEC.md §4: stay time since the page was shown (or last became visible). */
    reportStay(path: string): string | null {
      return tracker.report({ id: builtinId('page_stay'), action: 'stay', logmap: { path, stayMs: now() - startedAt } });
    },

    /** SPEC.md §4: visible again → the start time is reset. */
    resetStart(): void {
      startedAt = now();
    },

    /**
     * Page leave (SPEC.md §4): beacons this tab's unsent entries, already sealed by the worker, and stashes what
     * the worker has not confirmed, so the next tab of the site sends it. Never plaintext on the wire.
     */
    reportLeft(): number {
      let sent = 0;
      for (const body of sealed) if (env.sendBeacon(collectorUrl(TRACKING_PATHS.trackInfo), body)) sent++;
      if (pending.size > 0) {
        try {
          env.storage.setItem(TRACKING_BROWSER.stashPrefix + tab, JSON.stringify([...pending.values()]));
        } catch {
          // Storage full or blocked: the worker may still have stored them; nothing better is possible here.
        }
      }
      return sent;
    },

    /** Ends the worker (pagehide) so no lock is held while the page sits in the back/forward cache. */
    suspend(): void {
      handle?.close();
      handle = null;
      connecting = null;
      handed.clear();
    },

    /** Connects now (if needed) and answers the worker's status; for operators and tests. */
    async status(): Promise<unknown> {
      const worker = handle ?? (await connect());
      return worker ? worker.status() : null;
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
  return random() < TRACKING.perfSampleRate;
}
