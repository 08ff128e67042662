// Table types of the tracking collector: registered app keys, entries, client error messages, monitoring samples.
import type { Generated } from 'kysely';
import type { EpochMs } from './common.ts';

/** Tracking app keys registered by the CLI (migration 002); keys from configuration are not stored. */
export interface TrackingAppKeysTable {
  app_key: string;
  label: Generated<string>;
  created_at: EpochMs;
  revoked_at: EpochMs | null;
}

/** One stored tracking entry (SPEC.md §3), keyed by the client's unique entry id so duplicates are dropped. */
export interface TrackingEventsTable {
  entry_id: string;
  app_key: string;
  produce_id: string;
  device_id: string;
  cold_start_id: string;
  seq_id: number;
  uid: string;
  time: EpochMs;
  oid: string;
  /** Numeric action code (TRACKING_ACTIONS). */
  action: number;
  foid: string;
  ffid: string;
  /** JSON text of the logmap. */
  logmap: string;
  queue_id: string;
  received_at: EpochMs;
}

/** A client error report (SPEC.md §7 POST /spider/api/v1/report/message). */
export interface TrackingMessagesTable {
  id: Generated<number>;
  app_key: string;
  device_id: string;
  app_version: string;
  platform: string;
  platform_version: string;
  message: string;
  received_at: EpochMs;
}

/** A monitoring sample: a web-vitals metric (kind 'perf') or a tracking failure (kind 'error'). */
export interface TrackingMonitorTable {
  id: Generated<number>;
  app_key: string;
  device_id: string;
  kind: string;
  name: string;
  value: number | null;
  rating: string | null;
  page: string;
  message: string | null;
  received_at: EpochMs;
}
