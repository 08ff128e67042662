// Settling a task: its outcome and its credits written in one transaction (the hold charged down to what the result
// cost, or refunded whole when it failed or was canceled), then its provider jobs ended.
import type { Kysely, Transaction } from 'kysely';
import type { Schema, TaskRow } from '../db';
import { applyCreditChange, InsufficientCreditsError } from '../credits';
import type { ProviderCost } from '../engines';
import type { Logger } from '../log';
import { endedTaskMessage, type TaskStatus } from '../../src/lib/product-rules';
import type { ProviderJobStore } from './provider-jobs';
import type { StoredOutput } from './task-types';

/** Ledger reasons of task credit movements; the reference is always the task id. */
export const LEDGER_REASONS = { hold: 'task-hold', settle: 'task-settle', refund: 'task-refund' } as const;

/** Statuses of a task that is not finished: only these settle. */
export const ACTIVE_STATUSES: TaskStatus[] = ['queued', 'running'];

/** How a task ended: a result and what it cost (priced by chargePrice()), or why it did not. */
export type TaskOutcome =
  | { status: 'succeeded'; output: StoredOutput; charge: number; engine?: string; costs?: ProviderCost[] }
  | { status: 'failed' | 'canceled'; error: string };

/**
 * Inside the finishing transaction: a succeeded task (`charge` its real cost) gets the difference to its hold back,
 * or is charged the rest when the balance allows; a failed or canceled one (`charge` null) is refunded its hold.
 * Answers what the task was charged.
 */
export async function settleCredits(
  trx: Transaction<Schema>,
  task: Pick<TaskRow, 'id' | 'user_id' | 'credits_held'>,
  charge: number | null,
): Promise<number> {
  const held = task.credits_held;
  const change = (delta: number, reason: string) =>
    applyCreditChange(trx, { userId: task.user_id, delta, reason, reference: task.id });
  if (charge === null) {
    if (held > 0) await change(held, LEDGER_REASONS.refund);
    return 0;
  }
  const diff = held - charge;
  if (diff > 0) await change(diff, LEDGER_REASONS.settle);
  if (diff < 0) {
    // The real output cost more than the estimate: charge the rest if the balance allows, else keep what was held.
    try {
      await change(diff, LEDGER_REASONS.settle);
    } catch (error) {
      if (!(error instanceof InsufficientCreditsError)) throw error;
      return held;
    }
  }
  return charge;
}

export interface TaskSettlementOptions {
  db: Kysely<Schema>;
  log: Logger;
  providerJobs: Pick<ProviderJobStore, 'settle'>;
  /** Called inside the transaction that finishes a task, so a webhook is stored with the outcome or not at all. */
  onFinished?: (trx: Transaction<Schema>, task: TaskRow, costs?: ProviderCost[]) => Promise<void>;
}

/** Another writer finished the task between our read and write (PostgreSQL): its transaction is rolled back. */
class FinishRace extends Error {}

export function taskSettlement(o: TaskSettlementOptions) {
  const { db } = o;
  /** Provider jobs being canceled or ended after their task finished; a stopping process waits for them. */
  const ending = new Set<Promise<void>>();

  /** Ends the finished task's provider jobs in the background: the cancel's answer need not wait for the provider. */
  function endJobs(task: TaskRow): void {
    const done = o.providerJobs
      .settle({ id: task.id, status: task.status as TaskStatus, engine: task.engine, attempts: task.attempts })
      .catch((error: unknown) =>
        o.log.warn('provider jobs of a finished task were not ended', {
          taskId: task.id,
          error: error instanceof Error ? error.message : String(error),
        }),
      )
      .finally(() => ending.delete(done));
    ending.add(done);
  }

  /** Writes the outcome of a task still in `from` (of attempt `attempt`, when given) with its credits. */
  async function write(
    trx: Transaction<Schema>,
    id: string,
    outcome: TaskOutcome,
    from: TaskStatus[],
    attempt?: number,
  ) {
    const now = Date.now();
    let current = trx.selectFrom('tasks').selectAll().where('id', '=', id).where('status', 'in', from);
    // A run that was taken over (its worker lost the lease but kept going) may not settle the newer attempt's task.
    if (attempt !== undefined) current = current.where('attempts', '=', attempt);
    const task = await current.executeTakeFirst();
    if (!task) return undefined;
    const succeeded = outcome.status === 'succeeded';
    const charged = await settleCredits(trx, task, succeeded ? outcome.charge : null);
    const updated = await trx
      .updateTable('tasks')
      .set({
        status: outcome.status,
        // A fallback engine that produced the result is recorded as the task's engine.
        ...(succeeded && outcome.engine ? { engine: outcome.engine } : {}),
        output: succeeded ? JSON.stringify(outcome.output) : null,
        // Only a run that held credits is said to have them back (a free run held none).
        error: succeeded ? null : endedTaskMessage(outcome.error, task.credits_held),
        progress: succeeded ? 100 : task.progress,
        credits_charged: charged,
        finished_at: now,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('status', '=', task.status)
      .where('attempts', '=', task.attempts)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new FinishRace();
    await o.onFinished?.(trx, updated, succeeded ? outcome.costs : undefined);
    return updated;
  }

  return {
    /**
     * Finishes a task that is still active (in `from`; of attempt `attempt`, when given): sets the outcome and moves
     * credits in one transaction, then ends its provider jobs. False when it was not, so a second settle changes
     * nothing.
     */
    async finish(id: string, outcome: TaskOutcome, from = ACTIVE_STATUSES, attempt?: number): Promise<boolean> {
      const finished = await db
        .transaction()
        .execute((trx) => write(trx, id, outcome, from, attempt))
        .catch((error: unknown) => {
          if (error instanceof FinishRace) return undefined;
          throw error;
        });
      // Whoever finished the task ends its provider jobs: a canceled task's jobs stop even when no process runs it.
      if (finished) endJobs(finished);
      return finished !== undefined;
    },

    /** Resolves once the provider jobs of finished tasks are canceled or ended (a stopping process waits for it). */
    async providerJobsEnded(): Promise<void> {
      while (ending.size > 0) await Promise.all([...ending]);
    },
  };
}

export type TaskSettlement = ReturnType<typeof taskSettlement>;
