// Live task status over Server-Sent Events (docs/public-api.md "Live status"): paths, stream caps, heartbeats, listener
// keepalive and backoff.

import { PLAYGROUND_PREFIX } from './api-prefixes';

const SECOND_MS = 1000;

export const LIVE_STATUS = {
  /**
   * The public API's stream (Bearer key): one task with ?taskId=, else every task of the account. Beside
   * getAsyncResult.
   */
  publicPath: '/api/getAsyncResult/stream',
  /** The playground's stream (session token), under the playground API prefix. */
  playgroundPath: `${PLAYGROUND_PREFIX}/video_tools/v1/stream`,
  /** SSE event name of a task view; every event carries an id, so a reconnect sends Last-Event-ID. */
  event: 'task',
  /** Open streams one account may hold on one API instance; one more is refused with 429. */
  maxStreamsPerAccount: 8,
  /** A comment line this often keeps proxies with 30–60 s idle timeouts from cutting a quiet stream. */
  heartbeatMs: 15 * SECOND_MS,
  /** The `retry:` sent first: how long a browser's EventSource waits before reconnecting. */
  clientRetryMs: 2 * SECOND_MS,
  /** Tasks an account stream re-reads at most on (re)subscribe or after the feed reconnected, newest first. */
  resyncLimit: 100,
  /**
   * Re-reads on an account stream's resume reach this far before Last-Event-ID (clocks of instances differ a little).
   */
  clockSkewMs: 5 * SECOND_MS,
  /** A notice that arrived before its transaction committed (Redis) is read again after these delays. */
  recheckMs: [50, 250, 1500] as readonly number[],
  /** NOTIFY channel (and Redis channel suffix) carrying {userId, taskId} of a changed task. */
  channel: 'dreamapi_task_status',
  /**
   * The feed's listener: TCP keepalive, a ping this often, and a ping unanswered this long counts as a lost connection.
   */
  keepAliveMs: 10 * SECOND_MS,
  pingMs: 15 * SECOND_MS,
  pingTimeoutMs: 5 * SECOND_MS,
  /** Reconnect backoff of the listener: doubles from the first delay up to the last. */
  reconnectMinMs: 250,
  reconnectMaxMs: 10 * SECOND_MS,
  /** Clients (SDK, playground) fall back to polling this often when a stream cannot be had. */
  pollFallbackMs: SECOND_MS,
} as const;

export const LIVE_STATUS_MESSAGES = {
  tooManyStreams: `Too many open status streams for this account (at most ${LIVE_STATUS.maxStreamsPerAccount} per server); close one or poll getAsyncResult`,
  draining: 'This server is restarting; reconnect to continue the stream',
} as const;
