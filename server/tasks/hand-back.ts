// A draining process gives its running tasks back to the queue: no refund, no charge, the hold stays; another run
// finishes it.
import type { Kysely } from 'kysely';
import type { Schema, TaskRow } from '../db';
import { tasksHandedBack } from '../metrics';

/** The abort reason of a run whose task was handed back: its runner's settle finds the task queued and does nothing. */
export class TaskHandedBack extends Error {
  override name = 'TaskHandedBack';
}

/**
 * Puts a running task back to queued, if this attempt still holds it (status and attempt both match). Done before the
 * run is aborted, so the aborted run's failure cannot settle (refund) it. The attempt stays counted: attempts is the
 * fencing token that keeps an older run from settling a newer one. True when the task was handed back.
 */
export function taskHandBack(db: Kysely<Schema>) {
  return async (task: TaskRow): Promise<boolean> => {
    const result = await db
      .updateTable('tasks')
      .set({ status: 'queued', progress: 0, updated_at: Date.now() })
      .where('id', '=', task.id)
      .where('status', '=', 'running')
      .where('attempts', '=', task.attempts)
      .executeTakeFirst();
    const handedBack = Number(result.numUpdatedRows) > 0;
    if (handedBack) tasksHandedBack.inc();
    return handedBack;
  };
}

/** Resolves true once `done` settles, or false after `ms` (the drain deadline passed first). */
export function settlesWithin(done: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void done.finally(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
