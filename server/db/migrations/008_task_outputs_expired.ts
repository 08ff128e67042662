// Migration 8: when a task's results were removed by retention, so the task can say so instead of showing no outputs.
import type { Kysely } from 'kysely';
import type { Engine } from './migration.ts';

export const name = '008_task_outputs_expired';

export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  // Epoch ms; null while the results are kept (or the task made none).
  await db.schema.alterTable('tasks').addColumn('outputs_expired_at', 'bigint').execute();
}
