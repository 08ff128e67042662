// Table type of the audit trail (migration 009): operator actions and credit changes not caused by a task.
import type { Generated } from 'kysely';
import type { EpochMs } from './common.ts';

export interface AuditLogTable {
  id: Generated<number>;
  at: EpochMs;
  /** An operator's name, user:<id>, or system. */
  actor: string;
  /** One of AUDIT.actions (src/lib/product-rules). */
  action: string;
  /** A user id, invitation code or API key id. */
  subject: string;
  reason: string;
  /** JSON text, or null. */
  detail: string | null;
}
