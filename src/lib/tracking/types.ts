// Shapes shared by the tracking stub, the worker engine and the collector: entries, config, answers (SPEC.md §3, §7)
// and the worker's API. Type-only imports: the page's tracking stub loads no zod.
import type { z } from 'zod';
import type { trackEntry } from '../api-contract/tracking-entry';
import type * as W from '../api-contract/tracking-wire';
import type { RequestBody } from '../api-contract/request-body';

/** SPEC.md §4 "Flags track token valid, config valid, appKey valid and request in progress". */
export interface EngineFlags {
  tokenValid: boolean;
  configValid: boolean;
  appKeyValid: boolean;
  requesting: boolean;
}

/** One tracking log entry as it travels inside an encrypted batch (SPEC.md §3 plus a unique entryId for dedupe). */
export type TrackEntry = z.infer<typeof trackEntry>;

/** An entry in the shared queue: the wire entry plus the tab that reported it (never sent). */
export interface QueuedEntry extends TrackEntry {
  tab: string;
}

/** What init() accepts (SPEC.md §3 tracking config, the fields a page may set). */
export interface TrackerInit {
  appKey: string;
  /** Base URL of the collector; '' or absent means the page's own origin. */
  domain?: string;
  /** Prepended to event ids; empty or 3 segments (SPEC.md §5). */
  logPrefix?: string;
  maxQueueLimit?: number;
  immediateReport?: boolean;
  baseLogmap?: Record<string, unknown>;
  appVersion?: string;
}

/** Every collector answer (SPEC.md §7, §8). */
export interface Answer<T = unknown> {
  code: number;
  msg: string;
  data?: T | null;
  /** Set by the transport, not sent on the wire: an HTTP 429's Retry-After in ms (0 without one); see retry.ts. */
  retryAfterMs?: number;
}

/** SPEC.md §3 app info, sent with the token request and error messages. */
export type AppInfo = z.infer<typeof W.appInfo>;
/** The answer of access_token. */
export type TokenData = z.infer<typeof W.tokenData>;
/** The answer of track_config. */
export type ConfigData = z.infer<typeof W.configData>;
/** The body of POST track_info, also the text of one beacon (SPEC.md §7). */
export type TrackInfoBody = RequestBody<typeof W.trackInfoBody>;

/** Notices tabs exchange over BroadcastChannel (SPEC.md §4 "other tabs are notified"). */
export type Notice = { type: 'enqueued'; count: number } | { type: 'sent'; ids: string[] };

/** What a tab's tracking worker reports to its page. */
export interface WorkerStatus {
  /** The persistent device id ('' before start), also for the page's web-vitals reports. */
  deviceId: string;
  leader: boolean;
  queued: number;
  flags: EngineFlags;
}

/** Receives this tab's page-leave beacons, sealed ahead of time (a page cannot wait for a worker while it unloads). */
export type Sealed = (bodies: string[], url: string) => void;

/**
 * The API a tab's tracking worker (src/worker) exposes to its page over Comlink; the page names it by this type only.
 */
export interface TrackingWorkerApi {
  /** Starts the engine once; later calls answer false (SPEC.md §4 config lock). */
  start(config: TrackerInit, tabId: string, sealed?: Sealed): Promise<boolean>;
  /** Resolves once the entries are durable in the shared queue, before any send. */
  enqueue(entries: QueuedEntry[]): Promise<void>;
  /** Takes over a closing tab's stash (JSON text of entries); resolves once they are stored. */
  adopt(stash: string): Promise<void>;
  /** The page saw the browser's `online` event. */
  online(): Promise<void>;
  /** Sends what is queued now if this tab leads (used by tests and the bench). */
  flush(): Promise<void>;
  status(): Promise<WorkerStatus>;
  /** Gives up leadership and stops (pagehide). */
  stop(): void;
}
