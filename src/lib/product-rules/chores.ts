// Recurring chores (media retention, tracking retention): their schedules, page size and the tracking retention default
// (docs/scaling.md "Chores").

const HOUR_MS = 60 * 60 * 1000;

/**
 * The chores that keep tables and storage bounded. With QUEUE=pg-boss each is a pg-boss schedule (one runner across
 * the cluster); in-process they run on a timer in the single process. Every pass works in pages of `pageRows` rows
 * per statement until nothing is left, so a backlog of any size never loads at once.
 */
export const CHORES = {
  /** Rows one statement reads, updates or deletes. */
  pageRows: 500,
  /** pg-boss queue (and schedule) names. */
  mediaQueue: 'dreamapi-chore-media-retention',
  trackingQueue: 'dreamapi-chore-tracking-retention',
  /** Cron expressions (UTC) of the pg-boss schedules: hourly, apart from each other and from the top of the hour. */
  mediaCron: '17 * * * *',
  trackingCron: '47 * * * *',
  /** How often the in-process queue runs them. */
  intervalMs: HOUR_MS,
  /** A chore job that outlives this is considered stuck and may run again. */
  expireInS: 30 * 60,
} as const;

/**
 * Tracking events kept (TRACKING_RETENTION_DAYS): an event goes once its event time (or its arrival) is older.
 * On PostgreSQL the table is partitioned by day of event time, so whole days are dropped at once.
 */
export const TRACKING_RETENTION = {
  defaultDays: 90,
  /** Longest retention accepted: ten years of daily partitions. */
  maxDays: 3650,
  /** Daily partitions made ahead of today (and one behind, for late arrivals), so inserts never wait for DDL. */
  partitionsAheadDays: 3,
  /**
   * How long dropping an old partition may wait for inserts in flight (new inserts queue behind it meanwhile) before it
   * gives up until the next pass.
   */
  dropLockTimeoutMs: 1000,
} as const;
