// Moving a finished task's credits: the held estimate settled to what the result cost, or refunded whole.
import type { Transaction } from 'kysely';
import type { Schema, TaskRow } from '../db';
import { applyCreditChange, InsufficientCreditsError } from '../credits';

/** Ledger reasons of task credit movements; the reference is always the task id. */
export const LEDGER_REASONS = { hold: 'task-hold', settle: 'task-settle', refund: 'task-refund' } as const;

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
