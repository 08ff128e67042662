// Acts on verified Stripe events: grants a purchase exactly once, and claws credits back on refunds and disputes.
import type Stripe from 'stripe';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { CHECKOUT_PENDING_MS, PAYMENT_LEDGER_REASONS } from '../../src/lib/product-rules';
import { applyCreditChange } from '../credits';
import type { PaymentsTable, Schema } from '../db';

export type EventOutcome = 'granted' | 'deducted' | 'duplicate' | 'ignored';

/**
 * A refund or dispute arrived before the purchase it belongs to was recorded as paid. Thrown inside the event's
 * transaction, so its id is not stored; the route answers non-2xx and Stripe sends the event again later.
 */
export class PaymentNotYetRecorded extends Error {
  override name = 'PaymentNotYetRecorded';
}

function paymentIntentId(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/**
 * Grants a paid Checkout Session's credits, once: the conditional pending → paid UPDATE is both the read and
 * the guard, so of several copies arriving together exactly one gets a row back (PostgreSQL makes the others
 * wait for it and then re-checks the status).
 */
async function grantPurchase(trx: Transaction<Schema>, session: Stripe.Checkout.Session): Promise<EventOutcome> {
  if (session.payment_status !== 'paid') return 'ignored';
  const claimed = await trx
    .updateTable('payments')
    .set({ status: 'paid', payment_intent: paymentIntentId(session.payment_intent), updated_at: Date.now() })
    .where('id', '=', session.id)
    .where('status', '=', 'pending')
    .returning(['user_id', 'credits'])
    .executeTakeFirst();
  if (!claimed) {
    const known = await trx.selectFrom('payments').select('id').where('id', '=', session.id).executeTakeFirst();
    return known ? 'duplicate' : 'ignored';
  }
  await applyCreditChange(trx, {
    userId: claimed.user_id,
    delta: claimed.credits,
    reason: PAYMENT_LEDGER_REASONS.purchase,
    reference: session.id,
    audit: { actor: 'stripe', reason: `paid checkout ${session.id}` },
  });
  return 'granted';
}

type Payment = Selectable<PaymentsTable>;

/**
 * Takes back the credits a refund or dispute covers, up to `target(payment)` in total for the purchase. A user
 * may already have spent them, so the deduction stops at the current balance (never below zero) and the
 * ledger row says what was taken; `credits_clawed_back` keeps the running total.
 *
 * Events for one payment may arrive together (Stripe sends `charge.refunded` per refund, and a dispute may
 * come with them), so the read and the write must be one step. The payment row is read by an UPDATE, which
 * locks it until the transaction ends on PostgreSQL (a second claw-back waits, then reads the committed
 * total) and is serialised on SQLite; the user row is locked the same way before its balance is read.
 * The final UPDATE is also conditional, so the running total can never exceed the purchase.
 */
async function clawBack(
  trx: Transaction<Schema>,
  intentId: string | null,
  reason: string,
  target: (payment: Payment) => number,
  patch: (payment: Payment) => Partial<Pick<Payment, 'status' | 'refunded_minor'>>,
): Promise<EventOutcome> {
  if (!intentId) return 'ignored';
  const now = Date.now();
  const payment = await trx
    .updateTable('payments')
    .set({ updated_at: now })
    .where('payment_intent', '=', intentId)
    .where('status', 'in', ['paid', 'refunded', 'disputed'])
    .returningAll()
    .executeTakeFirst();
  if (!payment) {
    // Before its grant a payment has no payment intent recorded, so an early refund cannot be matched yet.
    const pending = await trx
      .selectFrom('payments')
      .select('id')
      .where('status', '=', 'pending')
      .where('created_at', '>', now - CHECKOUT_PENDING_MS)
      .limit(1)
      .executeTakeFirst();
    if (pending) throw new PaymentNotYetRecorded(`no recorded payment has payment intent ${intentId}`);
    return 'ignored';
  }
  const owed = Math.max(0, Math.min(payment.credits, target(payment)) - payment.credits_clawed_back);
  const user = await trx
    .updateTable('users')
    .set({ updated_at: now })
    .where('id', '=', payment.user_id)
    .returning('credits')
    .executeTakeFirstOrThrow();
  const take = Math.min(owed, user.credits);
  const written = await trx
    .updateTable('payments')
    .set((eb) => ({ ...patch(payment), credits_clawed_back: eb('credits_clawed_back', '+', take), updated_at: now }))
    .where('id', '=', payment.id)
    .where((eb) => eb(eb('credits_clawed_back', '+', take), '<=', eb.ref('credits')))
    .returning('id')
    .executeTakeFirst();
  // Unreachable while the row is locked; if it ever happens, roll back so Stripe redelivers the event.
  if (!written) throw new Error(`claw-back of ${take} credits would exceed payment ${payment.id}`);
  if (take === 0) return 'ignored';
  await applyCreditChange(trx, {
    userId: payment.user_id,
    delta: -take,
    reason,
    reference: payment.id,
    audit: { actor: 'stripe', reason: `${reason} of payment ${payment.id}` },
  });
  return 'deducted';
}

/** Credits covered by a cumulative refunded amount: in proportion, rounded up, never more than the pack. */
function refundedCredits(payment: Payment, refundedMinor: number): number {
  return Math.ceil((payment.credits * Math.min(refundedMinor, payment.amount_minor)) / payment.amount_minor);
}

async function act(trx: Transaction<Schema>, event: Stripe.Event): Promise<EventOutcome> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return grantPurchase(trx, event.data.object);
    case 'checkout.session.expired':
      await trx
        .updateTable('payments')
        .set({ status: 'canceled', updated_at: Date.now() })
        .where('id', '=', event.data.object.id)
        .where('status', '=', 'pending')
        .execute();
      return 'ignored';
    case 'charge.refunded': {
      // amount_refunded is the charge's cumulative total, so events may come in any order or more than once:
      // the largest amount seen decides, and only what it covers beyond the credits already taken is deducted.
      const refunded = event.data.object.amount_refunded;
      if (!Number.isSafeInteger(refunded) || refunded < 0) return 'ignored';
      return clawBack(
        trx,
        paymentIntentId(event.data.object.payment_intent),
        PAYMENT_LEDGER_REASONS.refund,
        (p) => refundedCredits(p, Math.max(p.refunded_minor, refunded)),
        (p) => ({
          status: p.status === 'disputed' ? 'disputed' : 'refunded',
          refunded_minor: Math.max(p.refunded_minor, refunded),
        }),
      );
    }
    case 'charge.dispute.created': {
      const dispute = event.data.object;
      return clawBack(
        trx,
        paymentIntentId(dispute.payment_intent),
        PAYMENT_LEDGER_REASONS.dispute,
        (p) => p.credits,
        () => ({ status: 'disputed' }),
      );
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
