// Operability (docs/operations.md): metric names and buckets, request ids, readiness, graceful drain, backups and the
// audit trail.

const SECOND_MS = 1000;

export const METRICS = {
  /** Every metric this server exports starts with it (process metrics too). */
  prefix: 'dreamapi_',
  /** Where the Prometheus text is served, on PORT (with METRICS_TOKEN) or on METRICS_PORT. */
  path: '/metrics',
  /** Host the separate metrics listener binds when METRICS_HOST is unset: this machine only. */
  defaultHost: '127.0.0.1',
  /** METRICS_TOKEN is a shared secret: short ones are guessable. */
  minTokenChars: 16,
  /** HTTP latency buckets, seconds: sub-millisecond API reads up to slow uploads. */
  httpBucketsS: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  /** Queue wait (submit → a worker starts it) buckets, seconds. */
  queueWaitBucketsS: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  /** Run time of a task or one engine call, seconds: offline speech in milliseconds up to provider video in minutes. */
  runBucketsS: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  /** How long a live status stream stays open, seconds: one short task up to a playground tab left open for hours. */
  streamBucketsS: [1, 5, 15, 60, 300, 900, 1800, 3600, 7200, 14_400],
} as const;

export const REQUEST_ID = {
  /** Read from a request (a proxy's id is kept) and sent on every answer; errors carry it in the body too. */
  header: 'X-Request-Id',
  /**
   * An incoming id is kept when it is 1–128 visible characters of this set; anything else is replaced by a fresh one.
   */
  pattern: /^[A-Za-z0-9._:@/+=-]{1,128}$/,
} as const;

export const READINESS = {
  /** One dependency check (database, queue, Redis, S3) longer than this counts as unreachable. */
  checkTimeoutMs: 2 * SECOND_MS,
} as const;

export const DRAIN = {
  /** DRAIN_TIMEOUT_S default: running tasks get this long to finish after SIGTERM, then go back to the queue. */
  timeoutS: 25,
  /** DRAIN_DELAY_S default: seconds /readyz answers 503 while requests are still served, before the port closes. */
  delayS: 0,
} as const;

export const AUDIT = {
  /** What each recorded operator action or credit change is called in the audit trail. */
  actions: {
    suspend: 'user.suspend',
    unsuspend: 'user.unsuspend',
    grant: 'credits.grant',
    creditChange: 'credits.change',
    invitation: 'invitation.create',
    keyRevoke: 'api-key.revoke',
    restore: 'database.restore',
  },
  /** Who a change is by when nobody is named: the platform itself (a purchase, a sign-up grant). */
  systemActor: 'system',
  /** Ledger reasons of task credit movements start with this; every other credit change is audited. */
  taskReasonPrefix: 'task-',
  /** Rows `npm run admin -- audit` prints unless --limit says otherwise. */
  defaultListLimit: 50,
} as const;

export const OPERATIONS_MESSAGES = {
  metricsToken: 'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>',
  draining: 'This instance is shutting down; send requests to another one',
  notReady: (down: readonly string[]) =>
    `Not ready: ${down.join(', ')} ${down.length === 1 ? 'does' : 'do'} not answer`,
  /** 503 (with Retry-After) while the database does not answer: the request changed nothing and may be sent again. */
  databaseUnavailable: 'The database is not reachable right now; nothing was changed, try again in a few seconds',
  /** /readyz of a worker that stopped taking jobs, with each reason (docs/operations.md "Readiness"). */
  workPaused: (reasons: readonly string[]) => `Not taking jobs: ${reasons.join('; ')}`,
} as const;

/**
 * Riding out an outage of the database or the media store (docs/scaling.md "When it fails"): a finished output waits
 * on disk for its upload instead of spending one of its task's attempts; a worker that cannot reach either stops
 * taking jobs until both answer; the API answers 503 with Retry-After instead of waiting.
 */
export const OUTAGES = {
  /** How long a finished run keeps retrying its output's upload and its finishing write before the attempt gives up. */
  storeRetryDeadlineS: 600,
  /** First wait between those retries; it doubles up to storeRetryMaxDelayMs. */
  storeRetryFirstDelayMs: 500,
  storeRetryMaxDelayMs: 10 * SECOND_MS,
  /** How often a worker checks that its database and media store answer, to stop or resume taking jobs. */
  workCheckMs: 2 * SECOND_MS,
  /** Retry-After of a 503 answered while the database is unreachable. */
  databaseRetryAfterS: 5,
  /**
   * Opening a PostgreSQL connection may take this long before the request is answered 503 (waiting for a free pooled
   * one is not bounded).
   */
  databaseConnectTimeoutMs: 5 * SECOND_MS,
  /**
   * TCP keepalive on pooled PostgreSQL connections: a connection that half-opened is found within about this plus the
   * OS's probes.
   */
  databaseKeepAliveDelayMs: 10 * SECOND_MS,
} as const;
