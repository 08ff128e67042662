// Starts a purchase: a Stripe Checkout Session for one credit pack, recorded as a pending payment.
import type Stripe from 'stripe';
import type { Kysely } from 'kysely';
import type { CreditPack } from '../../src/lib/product-rules';
import type { Schema, User } from '../db';

export interface CheckoutStart {
  sessionId: string;
  url: string;
}

/**
 * Credits are never granted here: only the signed `checkout.session.completed` webhook grants them, so a
 * browser that forges its way to /payment?status=success gains nothing.
 */
export async function startCheckout(
  db: Kysely<Schema>,
  stripe: Stripe,
  user: Pick<User, 'id' | 'email'>,
  pack: CreditPack,
  siteUrl: string,
): Promise<CheckoutStart> {
  const session = await stripe.checkout.sessions.create({
    mode: 'payment',
    client_reference_id: user.id,
    customer_email: user.email ?? undefined,
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: pack.currency,
          unit_amount: pack.priceMinor,
          product_data: { name: `${pack.name}: ${pack.credits.toLocaleString('en-US')} credits` },
        },
      },
    ],
    metadata: { userId: user.id, packId: pack.id, credits: String(pack.credits) },
    success_url: `${siteUrl}/payment?status=success&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${siteUrl}/payment?status=canceled`,
  });
  if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
  const now = Date.now();
  await db
    .insertInto('payments')
    .values({
      id: session.id,
      user_id: user.id,
      pack_id: pack.id,
      credits: pack.credits,
      amount_minor: pack.priceMinor,
      currency: pack.currency,
      status: 'pending',
      payment_intent: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { sessionId: session.id, url: session.url };
}
