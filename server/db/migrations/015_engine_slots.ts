// Migration 15: cluster-wide engine slots as leased rows (engine, slot), so no worker pins a database session to hold
// one.
import type { Kysely } from 'kysely';
import type { Engine } from './migration.ts';

export const name = '015_engine_slots';

export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  // A row is a slot in use until its lease runs out; a free slot has no row (or an expired one, taken over in place).
  await db.schema
    .createTable('engine_slots')
    .addColumn('engine', 'text', (c) => c.notNull())
    // 0..cap-1 of that engine's ENGINE_CONCURRENCY.
    .addColumn('slot', 'integer', (c) => c.notNull())
    // The slot set (one per worker process) that holds it: only its holder renews or releases it.
    .addColumn('holder', 'text', (c) => c.notNull())
    // Epoch ms by the database's clock; a holder that stops renewing (killed, cut off) loses the slot then.
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('engine_slots_pk', ['engine', 'slot'])
    .execute();
  await db.schema.createIndex('engine_slots_holder').on('engine_slots').column('holder').execute();
}
