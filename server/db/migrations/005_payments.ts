// Migration 5: credit purchases through Stripe Checkout and the webhook events already processed (docs/payments.md).
import type { Kysely } from 'kysely';

export const name = '005_payments';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payments')
    // The Checkout Session id: one row per purchase attempt.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('pack_id', 'text', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('amount_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    // pending → paid → (partly) refunded | disputed; canceled when the session expired unpaid.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_intent', 'text')
    .addColumn('refunded_minor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_clawed_back', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payments_user_id_idx').on('payments').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('payments_payment_intent_idx').on('payments').column('payment_intent').execute();
  await db.schema
    .createTable('stripe_events')
    // Stripe may deliver an event more than once; its id is stored once, inside the transaction that acts on it.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
}
