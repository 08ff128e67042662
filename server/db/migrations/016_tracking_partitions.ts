// Migration 16: on PostgreSQL, tracking_events partitioned by day of event time (existing rows moved in); on SQLite, an
// index on event time for the paged prune.
import { sql, type Kysely } from 'kysely';
import type { Engine } from './migration.ts';
import { createTrackingEventsReceivedIndex, trackingEventsColumns } from './tracking-events-columns.ts';

export const name = '016_tracking_partitions';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Days back from today whose existing events get their own partition: the retention default when this was written. */
const BACKFILL_DAYS = 90;
/**
 * Partitions made ahead of today; the tracking chore keeps making them from then on (server/tracking/partitions.ts).
 */
const AHEAD_DAYS = 3;

/**
 * A day's partition name, tracking_events_pYYYYMMDD (UTC): the name server/tracking/partitions.ts reads bounds from.
 */
function partitionName(day: number): string {
  return `tracking_events_p${new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'sqlite') {
    // SQLite keeps one table; the retention chore deletes by event time in pages, which needs this index.
    await db.schema.createIndex('tracking_events_time_idx').on('tracking_events').column('time').execute();
    return;
  }
  // The old table and its index and key make way for the new ones' names; it is dropped once its rows are moved.
  await sql`alter table tracking_events rename to tracking_events_unpartitioned`.execute(db);
  await sql`alter table tracking_events_unpartitioned rename constraint tracking_events_pkey to tracking_events_unpartitioned_pkey`.execute(
    db,
  );
  await sql`alter index tracking_events_received_idx rename to tracking_events_unpartitioned_received_idx`.execute(db);
  // A partitioned table's key must hold its partition column: (entry_id, time) still deduplicates, since a redelivered
  // entry carries the same time.
  await db.schema
    .createTable('tracking_events')
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .$call(trackingEventsColumns)
    .addPrimaryKeyConstraint('tracking_events_pkey', ['entry_id', 'time'])
    .modifyEnd(sql`partition by range ("time")`)
    .execute();
  await createTrackingEventsReceivedIndex(db);
  // Events whose time no daily partition covers (a client clock far off, days before the partitions) land here; the
  // chore empties the range of a day out of it before making that day's partition, and prunes it in pages.
  await sql`create table tracking_events_default partition of tracking_events default`.execute(db);
  await db.schema
    .createIndex('tracking_events_default_time_idx')
    .on('tracking_events_default')
    .column('time')
    .execute();

  const today = Math.floor(Date.now() / DAY_MS);
  const { rows } = await sql<{
    day: string;
  }>`select distinct ("time" / ${DAY_MS}) as day from tracking_events_unpartitioned
    where "time" >= ${(today - BACKFILL_DAYS) * DAY_MS} and "time" < ${today * DAY_MS}`.execute(db);
  const days = new Set(rows.map((r) => Number(r.day)));
  for (let day = today - 1; day <= today + AHEAD_DAYS; day++) days.add(day);
  for (const day of [...days].sort((a, b) => a - b)) {
    const from = day * DAY_MS;
    await sql`create table ${sql.table(partitionName(day))} partition of tracking_events for values from (${sql.lit(from)}) to (${sql.lit(from + DAY_MS)})`.execute(
      db,
    );
  }
  await sql`insert into tracking_events select * from tracking_events_unpartitioned`.execute(db);
  await sql`drop table tracking_events_unpartitioned`.execute(db);
}
