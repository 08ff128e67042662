// Business constants and limits of SPEC.md §9 (plus the fixed names and codes of §3, §7 and §8), one place for all of
// them.

import { FROM_STORAGE_KEY, USER_ID_STORAGE_KEY } from './storage-keys';
import { MONITOR_TIMEOUT_MS } from './monitoring';
import { PERF_SAMPLE_RATE, SEQ_ID_WRAP } from './tracking';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;

/** Product API requests (SPEC.md §7 "the timeout is 10 s", §9 "Request timeout 10000 ms"). */
export const REQUEST = {
  timeoutMs: 10 * SECOND_MS,
  /**
   * File uploads (multipart, with progress) have no time limit, 0: a large file on a slow link takes what it takes; the
   * server's upload cap bounds it.
   */
  uploadTimeoutMs: 0,
} as const;

/** Email login (SPEC.md §4 "a 4-digit code step", §7 POST /user/code type 'login', §9 "Email code 4 digits"). */
export const LOGIN = {
  codeDigits: 4,
  codeType: 'login',
} as const;

/** Invitation redeem (SPEC.md §9 "Invitation gives 500 credits, added locally"). */
export const INVITATION = {
  credits: 500,
} as const;

/** Modals shown after login (SPEC.md §4 "After login", §9). */
export const MODALS = {
  /** The suspension modal closes by itself after this countdown. */
  suspensionCountdownS: 9,
  /** The bind-email prompt is shown at most once per this interval (24 h). */
  bindEmailIntervalMs: 24 * HOUR_MS,
  /** How long a toast (SPEC.md §8 successes and failures) stays on screen. */
  toastMs: 3000,
} as const;

/** Cookie lifetimes (SPEC.md §3 "Cookies", §9 "Cookie from: 1 day. User id cookie: 30 days"). */
export const COOKIES = {
  fromDays: 1,
  userIdDays: 30,
} as const;

/** Cookie names (SPEC.md §3: cookies from and user id; a user id is also read from cookies userid or x-token). */
export const COOKIE_NAMES = {
  from: 'from',
  /** The name the user id cookie is written under. */
  userId: 'userid',
  /** Every name a user id is read from, in the order they are tried. */
  userIdAlt: ['userid', 'x-token'],
} as const;

/**
 * Local storage keys, exactly as SPEC.md §3 lists them. 'cookie-accpet' is misspelled in the original
 * product; it is kept so consent stored by the original front end is still honoured.
 */
export const STORAGE_KEYS = {
  userToken: 'userToken',
  userKey: 'userKey',
  loginType: 'loginType',
  countryCode: 'countryCode',
  from: FROM_STORAGE_KEY,
  refererUrl: 'refererUrl',
  redirectUri: 'redirectUri',
  hasRead: 'hasRead',
  userId: USER_ID_STORAGE_KEY,
  bindEmailTime: 'bindEmailTime',
  cookieAccept: 'cookie-accpet',
} as const;

/** A user id this long or longer is shown masked (SPEC.md §9). */
export const USER_ID_MASK_MIN_LENGTH = 16;

/** How many characters a masked user id keeps visible at each end (our design; SPEC.md §9 does not say). */
export const USER_ID_MASK_VISIBLE_CHARS = 4;

/** Tracking client defaults (SPEC.md §9 "Tracking", §4 "Tracking", §7 tracking calls, §8 retries). */
export const TRACKING = {
  /** Default entries per batch. */
  batchSize: 20,
  /** Default buffer interval; a config's bufferS is seconds and is multiplied by 1000. */
  bufferMs: 20 * SECOND_MS,
  /** Immediate mode sends one entry per batch. */
  immediateBatchSize: 1,
  /** Default queue cap (maxQueueLimit). */
  queueLimit: 100,
  /** seqId wraps after this value. */
  seqIdWrap: SEQ_ID_WRAP,
  /**
   * A stored token and config are reused while younger than 1.8 h (108 minutes, written so to stay an exact integer).
   */
  cacheMaxAgeMs: 108 * MINUTE_MS,
  /** When the queue is empty the timer stops after this check delay. */
  stopCheckDelayMs: 2 * SECOND_MS,
  /** Share of page views that send a performance report. */
  perfSampleRate: PERF_SAMPLE_RATE,
  /** Timeout of calls to the performance-monitoring collector. */
  monitorTimeoutMs: MONITOR_TIMEOUT_MS,
  /** A random queueId has 9 to 10 digits. */
  queueIdMinDigits: 9,
  queueIdMaxDigits: 10,
  /** Length of a webview id. */
  webviewIdLength: 16,
  /**
   * A batch the collector refuses is tried once more, then dropped (SPEC.md §8 "retried once"). The retry waits
   * TRACKING_RETRY's backoff (1 s, 2 s, 4 s … ±20 %, never longer than the buffer interval) or goes at once when the
   * browser is back online; network failures are retried as long as they last (docs/tracking-protocol.md "Retries").
   */
  sendRetries: 1,
  /** The default tracking host listens on this port (SPEC.md §7). */
  defaultPort: 8443,
} as const;

/** Alternative success marker on product API answers (SPEC.md §8 "status_code THS12140000000"). */
export const SUCCESS_STATUS_CODE = 'THS12140000000';

/** Envelope codes of the product API (SPEC.md §8). */
export const API_CODES = {
  ok: 0,
  notLoggedIn: 40001,
} as const;

/** Envelope codes of the tracking collector (SPEC.md §8 "Tracking codes"). */
export const TRACKING_CODES = {
  ok: 0,
  /** Stop polling and mark the key invalid. */
  appKeyError: 40001,
  /** Fetch a new token. */
  tokenFailure: 40002,
} as const;

/** The OAuth state sent to Google and GitHub (SPEC.md §2 "with state dreamapi"). */
export const OAUTH_STATE_PREFIX = 'dreamapi';

/**
 * Channel text of the company form ("how they heard of the product").
 * SPEC.md §5 says the limit is 500 characters but the counter shows /1000; the two figures disagree, and we keep
 * both as written: 500 is enforced (the textarea's maxlength and the server), the counter reads /1,000.
 * Lengths are UTF-16 code units, the unit the HTML maxlength attribute counts, so the textarea and the server agree.
 */
export const CHANNEL = {
  maxLength: 500,
  counterMax: 1000,
} as const;

/**
 * Company name of the company form (SPEC.md §3). SPEC.md does not give a limit; 200 fits any real company
 * name and bounds what we store.
 */
export const COMPANY = {
  maxLength: 200,
} as const;
