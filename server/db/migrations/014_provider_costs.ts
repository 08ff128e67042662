// Migration 14: what each settled task charged and what its result cost at the provider, for the operator's margin (npm
// run admin -- costs).
import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Engine } from './migration.ts';

export const name = '014_provider_costs';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // Own tables rather than columns on tasks: a user may delete a task from the history, and the margin must not change.
  await db.schema
    .createTable('task_costs')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    // The engine that made the result and the feature, as the task had them when it settled.
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('feature', 'text', (c) => c.notNull())
    .addColumn('credits_charged', 'integer', (c) => c.notNull())
    .addColumn('settled_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_costs_settled_idx').on('task_costs').columns(['settled_at', 'engine']).execute();

  const serial = <TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) =>
    engine === 'postgres'
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  // One row per provider call that bills: dubbing with lip sync is an ElevenLabs dub and a fal job.
  await db.schema
    .createTable('task_provider_costs')
    .$call(serial)
    .addColumn('task_id', 'text', (c) => c.notNull().references('task_costs.task_id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('amount', engine === 'postgres' ? 'double precision' : 'real', (c) => c.notNull())
    // COST_UNITS (src/lib/product-rules/provider-costs.ts).
    .addColumn('unit', 'text', (c) => c.notNull())
    // Null where no price per unit is known.
    .addColumn('usd', engine === 'postgres' ? 'double precision' : 'real')
    // 1 when the provider reported nothing and the figure was computed from a published price.
    .addColumn('estimated', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_provider_costs_task_idx').on('task_provider_costs').column('task_id').execute();
}
