// The tracking_events columns after entry_id, as migration 2 made them and migration 16 made them again for the
// partitioned table: one list, since 16 moves the rows over with `select *`, which needs the same columns in the same
// order. Both migrations have run on databases: the SQL this builds must never change; a new column is a new migration.
import type { CreateTableBuilder, Kysely } from 'kysely';

export function trackingEventsColumns<TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) {
  return table
    .addColumn('app_key', 'text', (c) => c.notNull())
    .addColumn('produce_id', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('cold_start_id', 'text', (c) => c.notNull())
    .addColumn('seq_id', 'integer', (c) => c.notNull())
    .addColumn('uid', 'text', (c) => c.notNull())
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('oid', 'text', (c) => c.notNull())
    .addColumn('action', 'integer', (c) => c.notNull())
    .addColumn('foid', 'text', (c) => c.notNull())
    .addColumn('ffid', 'text', (c) => c.notNull())
    .addColumn('logmap', 'text', (c) => c.notNull())
    .addColumn('queue_id', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull());
}

/** Exports read in arrival order, optionally from a point in time. */
export async function createTrackingEventsReceivedIndex(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('tracking_events_received_idx')
    .on('tracking_events')
    .columns(['received_at', 'entry_id'])
    .execute();
}
