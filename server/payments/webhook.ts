// Acts on verified Stripe events: grants a purchase exactly once, and claws credits back on refunds and disputes.
import type Stripe from 'stripe';
import type { Kysely, Transaction } from 'kysely';
import { PAYMENT_LEDGER_REASONS } from '../../src/lib/spec';
import { applyCreditChange } from '../credits';
import type { Schema } from '../db';

export type EventOutcome = 'granted' | 'deducted' | 'duplicate' | 'ignored';

function paymentIntentId(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** Grants a paid Checkout Session's credits, once: the pending → paid update is the guard. */
async function grantPurchase(trx: Transaction<Schema>, session: Stripe.Checkout.Session): Promise<EventOutcome> {
  if (session.payment_status !== 'paid') return 'ignored';
  const payment = await trx.selectFrom('payments').selectAll().where('id', '=', session.id).executeTakeFirst();
  if (!payment) return 'ignored';
  const claimed = await trx
    .updateTable('payments')
    .set({ status: 'paid', payment_intent: paymentIntentId(session.payment_intent), updated_at: Date.now() })
    .where('id', '=', session.id)
    .where('status', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  if (!claimed) return 'duplicate';
  await applyCreditChange(trx, {
    userId: payment.user_id,
    delta: payment.credits,
    reason: PAYMENT_LEDGER_REASONS.purchase,
    reference: session.id,
  });
  return 'granted';
}

/**
 * Takes back the credits a refund or dispute covers. A user may already have spent them, so the deduction
 * stops at the current balance (never below zero) and the ledger row says what was taken.
 */
async function clawBack(
  trx: Transaction<Schema>,
  intentId: string | null,
  reason: string,
  creditsFor: (payment: { credits: number; amount_minor: number; credits_clawed_back: number }) => number,
  patch: Partial<{ status: 'refunded' | 'disputed'; refunded_minor: number }>,
): Promise<EventOutcome> {
  if (!intentId) return 'ignored';
  const payment = await trx.selectFrom('payments').selectAll().where('payment_intent', '=', intentId).executeTakeFirst();
  if (!payment || payment.status === 'pending' || payment.status === 'canceled') return 'ignored';
  const owed = Math.max(0, creditsFor(payment) - payment.credits_clawed_back);
  const user = await trx.selectFrom('users').select('credits').where('id', '=', payment.user_id).executeTakeFirstOrThrow();
  const take = Math.min(owed, user.credits);
  await trx
    .updateTable('payments')
    .set({ ...patch, credits_clawed_back: payment.credits_clawed_back + take, updated_at: Date.now() })
    .where('id', '=', payment.id)
    .execute();
  if (take === 0) return 'ignored';
  await applyCreditChange(trx, { userId: payment.user_id, delta: -take, reason, reference: payment.id });
  return 'deducted';
}

async function act(trx: Transaction<Schema>, event: Stripe.Event): Promise<EventOutcome> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return grantPurchase(trx, event.data.object);
    case 'checkout.session.expired':
      await trx.updateTable('payments').set({ status: 'canceled', updated_at: Date.now() }).where('id', '=', event.data.object.id).where('status', '=', 'pending').execute();
      return 'ignored';
    case 'charge.refunded': {
      const charge = event.data.object;
      // Proportional to the amount refunded so far, so partial refunds take partial credits.
      return clawBack(
        trx,
        paymentIntentId(charge.payment_intent),
        PAYMENT_LEDGER_REASONS.refund,
        (p) => Math.ceil((p.credits * Math.min(charge.amount_refunded, p.amount_minor)) / p.amount_minor),
        { status: 'refunded', refunded_minor: charge.amount_refunded },
      );
    }
    case 'charge.dispute.created': {
      const dispute = event.data.object;
      return clawBack(trx, paymentIntentId(dispute.payment_intent), PAYMENT_LEDGER_REASONS.dispute, (p) => p.credits, { status: 'disputed' });
    }
    default:
      return 'ignored';
  }
}

/** Records the event id and acts on it in one transaction, so a redelivered or concurrent copy does nothing. */
export async function handleStripeEvent(db: Kysely<Schema>, event: Stripe.Event): Promise<EventOutcome> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('stripe_events')
      .values({ id: event.id, type: event.type, received_at: Date.now() })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return 'duplicate';
    return act(trx, event);
  });
}
