// Tracking retention: events older than TRACKING_RETENTION_DAYS go, in pages on SQLite, whole days at once on
// PostgreSQL.
import { sql } from 'kysely';
import { CHORES, TRACKING_RETENTION } from '../../src/lib/product-rules';
import type { AppDatabase } from '../db';
import { createPartitions, DAY_MS, dropPartitionsBefore } from './partitions';

export interface TrackingRetentionOptions {
  retentionDays: number;
  now?: number;
  pageRows?: number;
}

export interface TrackingPruned {
  /** Events deleted row by row (SQLite's table, PostgreSQL's default partition). */
  removed: number;
  /** PostgreSQL: daily partitions dropped and made ahead (always 0 on SQLite). */
  partitionsDropped: number;
  partitionsMade: number;
}

/** Deletes up to `pageRows` rows per statement from `table` until a page comes back short; answers how many went. */
async function deleteInPages(database: AppDatabase, cutoff: number, pageRows: number): Promise<number> {
  let removed = 0;
  for (;;) {
    // An event goes once its time or its arrival is past the cutoff: a client clock far ahead cannot keep it forever.
    const statement =
      database.engine === 'sqlite'
        ? sql`delete from tracking_events where entry_id in
            (select entry_id from tracking_events where "time" < ${cutoff} or received_at < ${cutoff} limit ${pageRows})`
        : sql`delete from tracking_events_default where ctid in
            (select ctid from tracking_events_default where "time" < ${cutoff} or received_at < ${cutoff} limit ${pageRows})`;
    const deleted = Number((await statement.execute(database.db)).numAffectedRows ?? 0);
    removed += deleted;
    if (deleted < pageRows) return removed;
  }
}

/**
 * One pass of the tracking chore. PostgreSQL: the partitions from yesterday to TRACKING_RETENTION.partitionsAheadDays
 * ahead are made if missing, the days wholly past the retention are dropped, and the default partition (events no day
 * covers) is pruned in pages. SQLite: the one table is pruned in pages.
 */
export async function pruneTrackingEvents(database: AppDatabase, o: TrackingRetentionOptions): Promise<TrackingPruned> {
  const now = o.now ?? Date.now();
  const pageRows = o.pageRows ?? CHORES.pageRows;
  const cutoff = now - o.retentionDays * DAY_MS;
  if (database.engine === 'sqlite')
    return { removed: await deleteInPages(database, cutoff, pageRows), partitionsDropped: 0, partitionsMade: 0 };
  const today = Math.floor(now / DAY_MS);
  const made = await createPartitions(database.db, today - 1, today + TRACKING_RETENTION.partitionsAheadDays);
  const dropped = await dropPartitionsBefore(database.db, cutoff, TRACKING_RETENTION.dropLockTimeoutMs);
  return {
    removed: await deleteInPages(database, cutoff, pageRows),
    partitionsDropped: dropped.length,
    partitionsMade: made.length,
  };
}
