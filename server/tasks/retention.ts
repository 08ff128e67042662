// Retention bookkeeping: tasks record when their results expired, so they keep saying so after the files are gone (SPEC.md §9).
import type { Kysely } from 'kysely';
import type { Schema } from '../db';

/**
 * Records when a task's results expired (SPEC.md §9 retention), before the media cleanup removes them, so the task
 * keeps saying so: from the files' own expiry, or for results removed before this was recorded, finish + retention.
 */
export async function recordExpiredOutputs(db: Kysely<Schema>, now: number, retentionMs: number): Promise<number> {
  const fromMedia = await db
    .updateTable('tasks')
    .set((eb) => ({ outputs_expired_at: eb.selectFrom('media').select((m) => m.fn.min('media.expires_at').as('at')).whereRef('media.task_id', '=', 'tasks.id') }))
    .where('outputs_expired_at', 'is', null)
    .where((eb) => eb.exists(eb.selectFrom('media').select('media.id').whereRef('media.task_id', '=', 'tasks.id').where('media.expires_at', '<', now)))
    .executeTakeFirst();
  const removedEarlier = await db
    .updateTable('tasks')
    .set((eb) => ({ outputs_expired_at: eb('finished_at', '+', retentionMs) }))
    .where('outputs_expired_at', 'is', null)
    .where('status', '=', 'succeeded')
    .where('finished_at', '<=', now - retentionMs)
    .where('output', 'not like', '%"media":[]%')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('media').select('media.id').whereRef('media.task_id', '=', 'tasks.id'))))
    .executeTakeFirst();
  return Number(fromMedia.numUpdatedRows) + Number(removedEarlier.numUpdatedRows);
}
