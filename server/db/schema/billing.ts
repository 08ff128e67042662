// Table types of credits and payments: the ledger, invitations and their redemptions, card payments and Stripe events.
import type { Generated } from 'kysely';
import type { EpochMs } from './common.ts';

export interface CreditLedgerTable {
  id: Generated<number>;
  user_id: string;
  /** Signed change: negative for spending, positive for grants and refunds. */
  delta: number;
  balance_after: number;
  reason: string;
  /** What the change is about, e.g. a task id or an invitation code. */
  reference: string | null;
  created_at: EpochMs;
}

export interface InvitationsTable {
  code: string;
  /** Credits granted per redemption (SPEC.md §9: 500 by default). */
  credits: number;
  max_uses: number;
  uses: Generated<number>;
  expires_at: EpochMs | null;
  created_at: EpochMs;
}

export interface InvitationRedemptionsTable {
  code: string;
  user_id: string;
  created_at: EpochMs;
}

export interface PaymentsTable {
  id: string;
  user_id: string;
  pack_id: string;
  credits: number;
  amount_minor: number;
  currency: string;
  status: 'pending' | 'paid' | 'refunded' | 'disputed' | 'canceled';
  payment_intent: string | null;
  refunded_minor: Generated<number>;
  credits_clawed_back: Generated<number>;
  created_at: EpochMs;
  updated_at: EpochMs;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  received_at: EpochMs;
}
