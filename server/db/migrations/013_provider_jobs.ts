// Migration 13: the provider jobs a task started (fal request, ElevenLabs dub, DreamAPI task), so a later attempt
// resumes them and an ended task cancels them.
import type { Kysely } from 'kysely';
import type { Engine } from './migration.ts';

export const name = '013_provider_jobs';

export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  // A table rather than columns on tasks: one attempt may hold two jobs at once (a dub, then fal's lip sync of it).
  await db.schema
    .createTable('provider_jobs')
    .addColumn('task_id', 'text', (c) => c.notNull())
    // The engine whose cancelJob() understands the reference, and the job's name within that engine's run.
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // The provider's reference as JSON text (request id and URLs, dubbing_id, task id); each engine validates its own.
    .addColumn('ref', 'text', (c) => c.notNull())
    // The task attempt that owns the job: the one that submitted it, or the later one that resumed it.
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    // Epoch ms; null while the job may still run at the provider (and may be resumed or must be canceled).
    .addColumn('ended_at', 'bigint')
    .addPrimaryKeyConstraint('provider_jobs_pk', ['task_id', 'engine', 'name'])
    .execute();
}
