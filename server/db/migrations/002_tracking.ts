// Migration 2: the tracking collector's tables: registered app keys, events (deduplicated by entry id), client errors,
// performance samples.
import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Engine } from './migration.ts';
import { createTrackingEventsReceivedIndex, trackingEventsColumns } from './tracking-events-columns.ts';

export const name = '002_tracking';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const epochMs = 'bigint';
  const serial = <TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) =>
    engine === 'postgres'
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

  // Keys registered by the CLI; keys from configuration are not stored, so removing one from the config revokes it.
  await db.schema
    .createTable('tracking_app_keys')
    .addColumn('app_key', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .addColumn('revoked_at', epochMs)
    .execute();

  await db.schema
    .createTable('tracking_events')
    // The client's unique entry id is the key: a second delivery of the same entry (retry, beacon, takeover) is
    // ignored.
    .addColumn('entry_id', 'text', (c) => c.primaryKey())
    .$call(trackingEventsColumns)
    .execute();
  await createTrackingEventsReceivedIndex(db);

  await db.schema
    .createTable('tracking_messages')
    .$call(serial)
    .addColumn('app_key', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('app_version', 'text', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('platform_version', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('received_at', epochMs, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tracking_monitor')
    .$call(serial)
    .addColumn('app_key', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'double precision')
    .addColumn('rating', 'text')
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('received_at', epochMs, (c) => c.notNull())
    .execute();
}
