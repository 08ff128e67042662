// The audit trail: who did what, to what, when and why, for operator actions and every credit change not caused by a
// task.
import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../db';
import { creditMovements } from '../metrics';
import { AUDIT } from '../../src/lib/product-rules';

export interface AuditEntry {
  /** operator:<name>, user:<id> or system (AUDIT.systemActor). */
  actor: string;
  /** One of AUDIT.actions. */
  action: string;
  /** The user id, invitation code or key the action was about. */
  subject: string;
  reason: string;
  detail?: Record<string, unknown> | null;
}

export interface AuditRow {
  id: number;
  at: number;
  actor: string;
  action: string;
  subject: string;
  reason: string;
  detail: Record<string, unknown> | null;
}

/** Who says what an audited credit change is: an operator's grant names the operator and the reason given. */
export interface CreditAudit {
  actor: string;
  action?: string;
  reason?: string;
}

type Db = Kysely<Schema> | Transaction<Schema>;

/** Writes one entry; pass the transaction of the change it records, so both commit or neither does. */
export async function recordAudit(db: Db, entry: AuditEntry, at = Date.now()): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at,
      actor: entry.actor,
      action: entry.action,
      subject: entry.subject,
      reason: entry.reason,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
    })
    .execute();
}

/** Task holds, settles and refunds are the task's own record (its row and ledger rows); everything else is audited. */
export function causedByTask(reason: string): boolean {
  return reason.startsWith(AUDIT.taskReasonPrefix);
}

/**
 * Called by applyCreditChange inside its transaction for a change no task caused (grant, invitation, purchase, refund
 * claw-back).
 */
export async function auditCreditChange(
  trx: Transaction<Schema>,
  change: { userId: string; delta: number; reason: string; reference?: string | null; audit?: CreditAudit },
  balance: number,
  entryId: number,
): Promise<void> {
  const why = change.audit?.reason ?? (change.reference ? `${change.reason} ${change.reference}` : change.reason);
  await recordAudit(trx, {
    actor: change.audit?.actor ?? AUDIT.systemActor,
    action: change.audit?.action ?? AUDIT.actions.creditChange,
    subject: change.userId,
    reason: why,
    detail: {
      delta: change.delta,
      balanceAfter: balance,
      ledgerReason: change.reason,
      reference: change.reference ?? null,
      ledgerId: entryId,
    },
  });
  creditMovements.inc({ movement: change.delta > 0 ? 'granted' : 'taken' }, Math.abs(change.delta));
}

export interface AuditQuery {
  limit?: number;
  subject?: string;
  action?: string;
  /** Only entries at or after this epoch ms. */
  since?: number;
}

/** Newest first. */
export async function listAudit(db: Kysely<Schema>, q: AuditQuery = {}): Promise<AuditRow[]> {
  let query = db
    .selectFrom('audit_log')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(q.limit ?? AUDIT.defaultListLimit);
  if (q.subject) query = query.where('subject', '=', q.subject);
  if (q.action) query = query.where('action', '=', q.action);
  if (q.since !== undefined) query = query.where('at', '>=', q.since);
  const rows = await query.execute();
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null,
  }));
}
