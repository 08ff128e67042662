// Removing stored media: one run's unkept outputs, a deleted task's files, and the retention chore's expired files.
import type { Kysely } from 'kysely';
import type { Schema } from '../db';
import { CHORES } from '../../src/lib/product-rules';
import { sweepUploadPolicies } from './policy-sweep';
import type { MediaStore } from './store';

export function mediaRemoval(db: Kysely<Schema>, store: MediaStore) {
  const stored = () => db.selectFrom('media').select(['id', 'storage_key']);
  /** Files first, then their rows: a row may outlive its file until the next pass, never the other way round. */
  async function remove(rows: ReadonlyArray<{ id: string; storage_key: string }>): Promise<void> {
    if (rows.length === 0) return;
    for (const row of rows) await store.delete(row.storage_key);
    const ids = rows.map((r) => r.id);
    await db.deleteFrom('media').where('id', 'in', ids).execute();
  }

  return {
    /** Removes the given media (one run's outputs that were not kept), with their poster frames. */
    async deleteByIds(ids: readonly string[]) {
      if (ids.length === 0) return;
      await remove(
        await stored()
          .where((eb) => eb.or([eb('id', 'in', ids), eb('poster_of', 'in', ids)]))
          .execute(),
      );
    },

    /** Removes a task's media (history delete). */
    async deleteForTask(taskId: string) {
      await remove(await stored().where('task_id', '=', taskId).execute());
    },

    /**
     * The retention chore's media pass: files past their retention are removed, then their rows, `pageRows` at a time
     * until none is left, so a backlog never loads at once (docs/scaling.md "Chores").
     */
    async cleanup(now = Date.now(), pageRows: number = CHORES.pageRows): Promise<number> {
      let removed = 0;
      for (;;) {
        const rows = await stored().where('expires_at', '<', now).orderBy('expires_at').limit(pageRows).execute();
        await remove(rows);
        removed += rows.length;
        if (rows.length < pageRows) break;
      }
      await sweepUploadPolicies(db, store.incoming ?? null, now);
      return removed;
    },
  };
}
