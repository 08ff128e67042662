// The provider jobs a task started, kept in provider_jobs: recorded per attempt, resumed by the next attempt, canceled
// when the task ends without them.
import type { Kysely } from 'kysely';
import type { Schema } from '../db';
import { ProviderJobOrphaned, type EngineRegistry, type ProviderJobs } from '../engines';
import type { Logger } from '../log';
import { PROVIDER_JOB_MESSAGES, type TaskStatus } from '../../src/lib/product-rules';

/** One attempt of one task: the fencing token every write here is checked against. */
export interface Attempt {
  id: string;
  attempts: number;
}

export interface ProviderJobStoreOptions {
  db: Kysely<Schema>;
  engines: Pick<EngineRegistry, 'byName'>;
  log: Pick<Logger, 'warn'>;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A stored reference as the engine recorded it; text that is not JSON is handed on as it is, for the engine's check to
 * refuse.
 */
function parsed(ref: string): unknown {
  try {
    return JSON.parse(ref) as unknown;
  } catch {
    return ref;
  }
}

export function providerJobStore(o: ProviderJobStoreOptions) {
  const { db } = o;

  async function cancel(engine: string, name: string, ref: unknown, taskId: string): Promise<void> {
    const known = o.engines.byName(engine);
    if (!known?.cancelJob) {
      // DreamAPI offers no cancel; an engine no longer configured here cannot be asked either.
      o.log.warn(
        known
          ? 'a provider job cannot be canceled: its provider offers no cancel; it runs on and may bill'
          : 'a provider job cannot be canceled: its engine is not configured here; it may still run and bill',
        { taskId, engine, name },
      );
      return;
    }
    const cancelJob = known.cancelJob.bind(known);
    try {
      await cancelJob(name, ref);
    } catch (error) {
      o.log.warn('canceling a provider job failed; it may still run and bill', {
        taskId,
        engine,
        name,
        error: message(error),
      });
    }
  }

  /**
   * Marks open jobs ended, one statement per job so that of two processes ending the same task only one cancels each
   * job, and cancels those this call ended. `keep` jobs are ended without a call (the result they made was used).
   */
  async function endOpen(
    taskId: string,
    rows: Array<{ engine: string; name: string; ref: string; attempt: number }>,
    keep?: { engine: string; attempt: number },
  ): Promise<void> {
    for (const row of rows) {
      const ended = await db
        .updateTable('provider_jobs')
        .set({ ended_at: Date.now(), updated_at: Date.now() })
        .where('task_id', '=', taskId)
        .where('engine', '=', row.engine)
        .where('name', '=', row.name)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      if (Number(ended.numUpdatedRows) === 0) continue;
      if (keep && row.engine === keep.engine && row.attempt === keep.attempt) continue;
      await cancel(row.engine, row.name, parsed(row.ref), taskId);
    }
  }

  /**
   * Runs `write` in a transaction only while `attempt` still holds its task (running, same attempt). The task row is
   * written first, which on PostgreSQL locks it: a claim by a newer attempt waits for this commit and then sees the
   * job.
   */
  async function whileHeld(attempt: Attempt, write: (trx: Kysely<Schema>) => Promise<void>): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      const held = await trx
        .updateTable('tasks')
        .set({ updated_at: Date.now() })
        .where('id', '=', attempt.id)
        .where('status', '=', 'running')
        .where('attempts', '=', attempt.attempts)
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) === 0) return false;
      await write(trx);
      return true;
    });
  }

  return {
    /** ctx.providerJobs for one engine's run in one attempt. */
    forRun(attempt: Attempt, engine: string): ProviderJobs {
      /** A job's key: one row per task, engine and name (the table's unique key). */
      const key = (name: string) => ({ task_id: attempt.id, engine, name });
      return {
        async record(name, ref) {
          const text = JSON.stringify(ref);
          const now = Date.now();
          let replaced: string | undefined;
          const held = await whileHeld(attempt, async (trx) => {
            const before = await trx
              .selectFrom('provider_jobs')
              .select(['ref', 'ended_at'])
              .where((eb) => eb.and(key(name)))
              .executeTakeFirst();
            // An open job under the same name that the engine did not resume would be lost: it is canceled below.
            if (before && before.ended_at === null && before.ref !== text) replaced = before.ref;
            await trx
              .insertInto('provider_jobs')
              .values({
                ...key(name),
                ref: text,
                attempt: attempt.attempts,
                created_at: now,
                updated_at: now,
                ended_at: null,
              })
              .onConflict((oc) =>
                oc
                  .columns(['task_id', 'engine', 'name'])
                  .doUpdateSet({ ref: text, attempt: attempt.attempts, updated_at: now, ended_at: null }),
              )
              .execute();
          });
          if (replaced !== undefined) await cancel(engine, name, parsed(replaced), attempt.id);
          if (held) return;
          // Nobody else knows this job: the task was canceled, handed back or taken over before it was stored.
          await cancel(engine, name, ref, attempt.id);
          throw new ProviderJobOrphaned(PROVIDER_JOB_MESSAGES.orphaned);
        },
        async earlier(name) {
          const row = await db
            .selectFrom('provider_jobs')
            .select(['ref', 'attempt'])
            .where((eb) => eb.and(key(name)))
            .where('ended_at', 'is', null)
            .executeTakeFirst();
          if (!row) return null;
          if (row.attempt !== attempt.attempts) {
            // This attempt takes the job over, so an older run still going (a lost lease) can no longer cancel it.
            const adopted = await whileHeld(attempt, async (trx) => {
              await trx
                .updateTable('provider_jobs')
                .set({ attempt: attempt.attempts, updated_at: Date.now() })
                .where((eb) => eb.and(key(name)))
                .where('ended_at', 'is', null)
                .execute();
            });
            if (!adopted) throw new ProviderJobOrphaned(PROVIDER_JOB_MESSAGES.orphaned);
          }
          return parsed(row.ref);
        },
      };
    },

    /**
     * After an engine failed in an attempt: cancels the jobs it recorded there, but only while the attempt still holds
     * its task. A handed-back or taken-over task's jobs belong to the next attempt; a canceled one's to whoever ended
     * it.
     */
    async cancelAttempt(attempt: Attempt, engine: string): Promise<void> {
      const rows = await db
        .selectFrom('provider_jobs')
        .select(['engine', 'name', 'ref', 'attempt'])
        .where('task_id', '=', attempt.id)
        .where('engine', '=', engine)
        .where('attempt', '=', attempt.attempts)
        .where('ended_at', 'is', null)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('tasks')
              .select('id')
              .where('id', '=', attempt.id)
              .where('status', '=', 'running')
              .where('attempts', '=', attempt.attempts),
          ),
        )
        .execute();
      await endOpen(attempt.id, rows);
    },

    /**
     * After a task finished, in whichever process finished it: a failed or canceled task's open jobs are canceled; a
     * succeeded one's are ended, and only the jobs of the engine and attempt that made the result are left uncanceled.
     */
    async settle(task: { id: string; status: TaskStatus; engine: string; attempts: number }): Promise<void> {
      const rows = await db
        .selectFrom('provider_jobs')
        .select(['engine', 'name', 'ref', 'attempt'])
        .where('task_id', '=', task.id)
        .where('ended_at', 'is', null)
        .execute();
      await endOpen(
        task.id,
        rows,
        task.status === 'succeeded' ? { engine: task.engine, attempt: task.attempts } : undefined,
      );
    },

    /** Forgets a deleted task's jobs (settle them first). */
    async remove(taskId: string): Promise<void> {
      await db.deleteFrom('provider_jobs').where('task_id', '=', taskId).execute();
    },
  };
}

export type ProviderJobStore = ReturnType<typeof providerJobStore>;
