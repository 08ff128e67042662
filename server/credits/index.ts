// The credits ledger: every balance change is one ledger row, made inside the caller's transaction, never below zero.
import type { Kysely, Transaction } from 'kysely';
import { pageOf, type Schema } from '../db';
import { auditCreditChange, causedByTask, type CreditAudit } from '../audit';
import { ACCOUNT_MESSAGES, CREDIT_HISTORY } from '../../src/lib/product-rules';
import type { LedgerPage } from '../../src/lib/api/types';
import type { TaskStatus } from '../../src/lib/product-rules';

export interface CreditChange {
  userId: string;
  /** Signed: positive grants and refunds, negative charges. Zero is refused (it would record nothing). */
  delta: number;
  /** Why, e.g. 'invitation', 'grant', 'task'. */
  reason: string;
  /** What it is about, e.g. an invitation code or task id. */
  reference?: string | null;
  /** Who made a change no task caused, and why (the audit trail); unset: the platform itself (AUDIT.systemActor). */
  audit?: CreditAudit;
}

export class InsufficientCreditsError extends Error {
  constructor(
    readonly balance: number,
    readonly needed: number,
  ) {
    super(ACCOUNT_MESSAGES.insufficientCredits);
    this.name = 'InsufficientCreditsError';
  }
}

export class UnknownUserError extends Error {
  constructor(readonly userId: string) {
    super(`No user with id ${userId}`);
    this.name = 'UnknownUserError';
  }
}

/**
 * Changes a balance and writes its ledger row (DESIGN.md "Nothing is lost"). Takes a transaction so the
 * change commits or rolls back with whatever caused it. The guarded UPDATE is atomic on both engines, so
 * concurrent charges can never take a balance below zero.
 */
export async function applyCreditChange(
  trx: Transaction<Schema>,
  change: CreditChange,
): Promise<{ balance: number; entryId: number }> {
  const { userId, delta, reason } = change;
  if (!Number.isSafeInteger(delta) || delta === 0) throw new RangeError('delta must be a non-zero integer');
  if (reason.trim() === '') throw new RangeError('reason must not be empty');
  const updated = await trx
    .updateTable('users')
    .set((eb) => ({ credits: eb('credits', '+', delta), updated_at: Date.now() }))
    .where('id', '=', userId)
    .where((eb) => eb(eb('credits', '+', delta), '>=', 0))
    .returning('credits')
    .executeTakeFirst();
  if (!updated) {
    const user = await trx.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirst();
    if (!user) throw new UnknownUserError(userId);
    throw new InsufficientCreditsError(user.credits, -delta);
  }
  const entry = await trx
    .insertInto('credit_ledger')
    .values({
      user_id: userId,
      delta,
      balance_after: updated.credits,
      reason,
      reference: change.reference ?? null,
      created_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // Task movements are recorded with their task; every other change also goes to the audit trail, in this transaction.
  if (!causedByTask(reason)) await auditCreditChange(trx, change, updated.credits, Number(entry.id));
  return { balance: updated.credits, entryId: Number(entry.id) };
}

/**
 * One page of a user's ledger, newest first (the dashboard's Billing tab), each task row with what became of its task.
 */
export async function creditHistory(
  db: Kysely<Schema>,
  userId: string,
  page = 1,
  pageSize: number = CREDIT_HISTORY.defaultPageSize,
): Promise<LedgerPage> {
  const rows = db
    .selectFrom('credit_ledger as l')
    // Task rows reference the task id; the task is gone when it was deleted from the history.
    .leftJoin('tasks as t', 't.id', 'l.reference')
    .selectAll('l')
    .select(['t.feature', 't.status', 't.credits_held', 't.credits_charged'])
    .where('l.user_id', '=', userId)
    .orderBy('l.id', 'desc');
  return pageOf(rows, page, pageSize, (r) => ({
    id: Number(r.id),
    delta: r.delta,
    balanceAfter: r.balance_after,
    reason: r.reason,
    reference: r.reference,
    createdAt: r.created_at,
    task: r.feature
      ? {
          feature: r.feature,
          status: r.status as TaskStatus,
          creditsHeld: r.credits_held!,
          creditsCharged: r.credits_charged,
        }
      : null,
  }));
}
