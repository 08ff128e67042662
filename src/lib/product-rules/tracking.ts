// Tracking protocol constants our design adds to SPEC.md §7–§9: paths, lifetimes, caps and collector codes.

import { MONITOR_PATH } from './monitoring';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const DAY_MS = 24 * 60 * MINUTE_MS;

// ---- Plain values the main-thread stub imports ----
// A bundler keeps an object literal whole, so the stub imports these scalars rather than the objects below, which are
// built from them: each value is still written once, and the page ships only the few it uses (bench/tracking.mjs).

/** localStorage prefix of entries a closing tab could not hand to its worker (TRACKING_BROWSER.stashPrefix). */
export const STASH_PREFIX = 'dreamTracker.stash.';
/** The site's app key when PUBLIC_TRACKING_APP_KEY is not set (TRACKING_BROWSER.defaultAppKey). */
export const DEFAULT_APP_KEY = 'dreamapi-web';
/** Largest serialized logmap of one entry (TRACKING_LIMITS.logmapMaxBytes). */
export const LOGMAP_MAX_BYTES = 4 * 1024;
/** SPEC.md §9 "seqId wraps after 10000" (TRACKING.seqIdWrap). */
export const SEQ_ID_WRAP = 10_000;
/** SPEC.md §9 "Performance sample rate 0.2" (TRACKING.perfSampleRate). */
export const PERF_SAMPLE_RATE = 0.2;

/**
 * The collector's paths (SPEC.md §7 tracking calls; the monitoring path is ours, SPEC.md only names "a
 * performance-monitoring collector").
 */
export const TRACKING_PATHS = {
  accessToken: '/spider/api/v1/access_token',
  trackConfig: '/spider/api/v1/report/track_config',
  trackInfo: '/spider/api/v1/report/track_info',
  message: '/spider/api/v1/report/message',
  monitor: MONITOR_PATH,
} as const;

/** Lifetimes and versions of the token flow. */
export const TRACKING_TOKEN = {
  /** A token lives 2 h: longer than the 1.8 h client cache (SPEC.md §9), so a cached token is never already dead. */
  ttlMs: 120 * MINUTE_MS,
  /** Version of the log entry format sent as logVersion (SPEC.md §7 access_token). */
  logVersion: '1',
  /** Version of the config track_config answers; bumped when the config's meaning changes. */
  configVersion: '1',
} as const;

/** Size caps that keep one client from filling the collector, and keep beacons deliverable. */
export const TRACKING_LIMITS = {
  /** Largest track_info body (JSON or beacon) the collector reads. */
  batchBodyMaxBytes: 512 * 1024,
  /** Largest body of the small calls (access_token, track_config, message, monitoring). */
  smallBodyMaxBytes: 16 * 1024,
  /** Most entries one batch may carry; equals the default queue cap (SPEC.md §9). */
  batchMaxEntries: 100,
  /** Largest serialized logmap of one entry. */
  logmapMaxBytes: LOGMAP_MAX_BYTES,
  /** Longest string field (ids, uid, event id) of an entry. */
  fieldMaxLength: 256,
  /** Longest client error message stored. */
  messageMaxLength: 4000,
  /**
   * One beacon's body stays under this: browsers allow about 64 KB of beacon/keepalive data in flight per
   * page (over it sendBeacon returns false; docs/tracking-protocol.md), and a page may send several beacons at once.
   */
  beaconMaxBytes: 48 * 1024,
  /**
   * The shared durable queue drops its oldest entries beyond this (e.g. offline for days); see
   * docs/tracking-protocol.md.
   */
  storeMaxEntries: 10_000,
  /** bufferS the collector may hand out: a floor keeps clients from hammering it. */
  minBufferS: 0.2,
  maxBufferS: 3600,
} as const;

/**
 * When a failed send is tried again (docs/tracking-protocol.md "Retries"): 1 s, 2 s, 4 s … doubling up to the buffer
 * interval, each ±20 % so that tabs of many visitors do not return in step after a collector outage. SPEC.md §8's
 * "retried once after the buffer interval" stays the slowest case: no retry waits longer than the buffer interval.
 */
export const TRACKING_RETRY = {
  firstDelayMs: SECOND_MS,
  factor: 2,
  jitter: 0.2,
  /**
   * The longest wait a collector's Retry-After is obeyed for (its longest budget window is a day); a longer one waits
   * this long.
   */
  retryAfterMaxMs: DAY_MS,
} as const;

/** Collector answer codes beyond SPEC.md §8's 0 / 40001 / 40002 (TRACKING_CODES); same 5-digit shape. */
export const TRACKING_ERROR_CODES = {
  invalidInput: 40000,
  signMismatch: 40003,
  cipherError: 40006,
  invalidEntry: 40007,
  payloadTooLarge: 40013,
  unsupportedMediaType: 40015,
  /**
   * HTTP 429 with Retry-After: over a collector budget (TRACKING_MESSAGE_LIMITS and the ones after it). The same number
   * as ERROR_CODES.rateLimited, written out because importing that object would ship it with the page's tracking stub
   * (bench/tracking.mjs).
   */
  rateLimited: 40029,
} as const;

/**
 * How much the message endpoint (SPEC.md §7 report/message) takes: it needs no token, so anyone can call it, and it is
 * limited per device id and per client IP, and in what it keeps (docs/tracking-protocol.md "Limits").
 */
export const TRACKING_MESSAGE_LIMITS = {
  windowMs: MINUTE_MS,
  /** Messages one device id may send per window: a tracker reports a failure at most every retry (1 s, 2 s, 4 s …). */
  perDevicePerWindow: 10,
  /**
   * Messages one client IP (IPv6: its /64) may send per window, whatever device ids it names: several devices behind
   * one NAT.
   */
  perIpPerWindow: 60,
  /** Messages stored per device id and app key per day; a device over it is refused until its day window ends. */
  perDevicePerDay: 100,
  dayMs: DAY_MS,
  /** Messages kept in all; each insert deletes what is older than the newest this many (oldest pruned first). */
  storedMax: 100_000,
} as const;

/**
 * How much the monitoring endpoint (TRACKING_PATHS.monitor) takes: like message it needs no token, so it has the same
 * kinds of budget and a capped table (docs/tracking-protocol.md "Limits").
 */
export const TRACKING_MONITOR_LIMITS = {
  windowMs: MINUTE_MS,
  /**
   * Reports one device id may send per window. A page load sends at most the five web vitals (LCP, CLS, INP, FCP,
   * TTFB), on one load in five (PERF_SAMPLE_RATE), and a failing tracker one error per try (1 s, 2 s, 4 s … apart): 60
   * is a page load every 5 s, every one of them sampled, while the collector is failing.
   */
  perDevicePerWindow: 60,
  /**
   * Reports one client IP (IPv6: its /64) may send per window, whatever device ids it names: several devices behind one
   * NAT.
   */
  perIpPerWindow: 300,
  /** Reports stored per device id and app key per day (a busy visitor loads a few hundred pages a day at most). */
  perDevicePerDay: 1000,
  dayMs: DAY_MS,
  /** Reports kept in all; each insert deletes what is older than the newest this many (oldest pruned first). */
  storedMax: 100_000,
} as const;

/**
 * How often access_token may be called. It stores nothing, but each call signs a token, and tokens are what buy batch
 * budgets (TRACKING_BATCH_LIMITS is per device id, and the caller picks the device id): the address budget bounds how
 * many devices one sender can speak for.
 */
export const TRACKING_TOKEN_LIMITS = {
  windowMs: MINUTE_MS,
  /** Tokens per device id per window: tabs share one cached token for 1.8 h and fetch again only after a 40002. */
  perDevicePerWindow: 10,
  /** Tokens per client IP (IPv6: its /64) per window: each new visitor behind one NAT fetches one. */
  perIpPerWindow: 120,
} as const;

/**
 * How many track_info requests (batches and page-leave beacons) one device may send. They carry a token, so they are
 * counted per token's app key and device id only. A device's tabs share one queue and one sender, the leader tab
 * (SPEC.md §4), so tabs do not multiply sends: at the defaults (SPEC.md §9: batch size 20, buffer 20 s) a device sends
 * one batch per 20 s tick plus one per 20 events reported. The most a device ever has waiting is the queue's
 * storeMaxEntries (10 000, after days offline), 500 batches of 20 sent one after another when it comes back; 600 a
 * minute lets that whole backlog through in one window with room for ticks, beacons and retries. Reaching it from
 * ordinary use takes 200 events a second for a minute; a person's clicks and views come nowhere near.
 */
export const TRACKING_BATCH_LIMITS = {
  windowMs: MINUTE_MS,
  perDevicePerWindow: 600,
} as const;

const AGAIN = 'try again after Retry-After seconds';

/** The collector's answers to a call over a budget, per endpoint (Retry-After says when to try again). */
export const TRACKING_LIMIT_MESSAGES = {
  message: {
    device: `Too many messages from this device; ${AGAIN}`,
    ip: `Too many messages from this address; ${AGAIN}`,
    day: `This device has sent its messages for today; ${AGAIN}`,
  },
  monitor: {
    device: `Too many monitoring reports from this device; ${AGAIN}`,
    ip: `Too many monitoring reports from this address; ${AGAIN}`,
    day: `This device has sent its monitoring reports for today; ${AGAIN}`,
  },
  accessToken: {
    device: `Too many token requests from this device; ${AGAIN}`,
    ip: `Too many token requests from this address; ${AGAIN}`,
  },
  trackInfo: {
    device: `Too many batches from this device; ${AGAIN}`,
  },
} as const;

/** Names the tracker uses in the browser: storage keys, channel and lock names, IndexedDB database. */
export const TRACKING_BROWSER = {
  dbName: 'dream-tracker',
  channel: 'dream-tracker',
  leaderLock: 'dream-tracker-leader',
  /** Key of the persistent device id in the IndexedDB database's meta store (created by the first worker). */
  deviceIdKey: 'deviceId',
  /** localStorage prefix of entries a closing tab could not hand to its worker. */
  stashPrefix: STASH_PREFIX,
  /** The site's app key when PUBLIC_TRACKING_APP_KEY is not set (also the collector's default registered key). */
  defaultAppKey: DEFAULT_APP_KEY,
} as const;
