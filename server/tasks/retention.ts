// Retention bookkeeping: tasks record when their results expired, so they keep saying so after the files are gone
// (SPEC.md §9).
import type { Kysely } from 'kysely';
import { CHORES } from '../../src/lib/product-rules';
import type { Schema } from '../db';

/**
 * Records when a task's results expired (SPEC.md §9 retention), before the media cleanup removes them, so the task
 * keeps saying so: from the files' own expiry, or for results removed before this was recorded, finish + retention.
 * Works in pages of `pageRows` tasks per statement until none is left (docs/scaling.md "Chores").
 */
export async function recordExpiredOutputs(
  db: Kysely<Schema>,
  now: number,
  retentionMs: number,
  pageRows: number = CHORES.pageRows,
): Promise<number> {
  let recorded = 0;
  for (;;) {
    const fromMedia = await db
      .updateTable('tasks')
      .set((eb) => ({
        outputs_expired_at: eb
          .selectFrom('media')
          .select((m) => m.fn.min('media.expires_at').as('at'))
          .whereRef('media.task_id', '=', 'tasks.id'),
      }))
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('tasks as t')
          .select('t.id')
          .where('t.outputs_expired_at', 'is', null)
          .where((w) =>
            w.exists(
              w
                .selectFrom('media')
                .select('media.id')
                .whereRef('media.task_id', '=', 't.id')
                .where('media.expires_at', '<', now),
            ),
          )
          .limit(pageRows),
      )
      .executeTakeFirst();
    const updated = Number(fromMedia.numUpdatedRows);
    recorded += updated;
    if (updated < pageRows) break;
  }
  for (;;) {
    const removedEarlier = await db
      .updateTable('tasks')
      .set((eb) => ({ outputs_expired_at: eb('finished_at', '+', retentionMs) }))
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('tasks as t')
          .select('t.id')
          .where('t.outputs_expired_at', 'is', null)
          .where('t.status', '=', 'succeeded')
          .where('t.finished_at', '<=', now - retentionMs)
          .where('t.output', 'not like', '%"media":[]%')
          .where((w) =>
            w.not(w.exists(w.selectFrom('media').select('media.id').whereRef('media.task_id', '=', 't.id'))),
          )
          .limit(pageRows),
      )
      .executeTakeFirst();
    const updated = Number(removedEarlier.numUpdatedRows);
    recorded += updated;
    if (updated < pageRows) break;
  }
  return recorded;
}
