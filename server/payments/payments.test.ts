// Payments against a local fake of Stripe's API: checkout, a grant exactly once, signatures, refunds, disputes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CREDIT_PACKS, PAYMENT_MESSAGES, STRIPE_WEBHOOK_TOLERANCE_S } from '../../src/lib/product-rules';
import { createAccountsTestApp, post, postJson, signIn, useAccountsTestApp } from '../test-support/accounts';
import { fakeStripeEnv, startFakeStripe, type FakeStripe } from '../test-support/fake-stripe';

let stripe: FakeStripe;
let user: { token: string; userId: string };

beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe.close());
const t = useAccountsTestApp(() => ({ ...fakeStripeEnv(stripe), SITE_URL: 'https://site.example' }));
beforeEach(async () => {
  user = await signIn(t, 'buyer@example.com');
});

const pack = CREDIT_PACKS[0]!;

async function balance(): Promise<number> {
  const row = await t.database.db
    .selectFrom('users')
    .select('credits')
    .where('id', '=', user.userId)
    .executeTakeFirstOrThrow();
  return row.credits;
}

async function ledger() {
  return t.database.db
    .selectFrom('credit_ledger')
    .selectAll()
    .where('user_id', '=', user.userId)
    .orderBy('id')
    .execute();
}

async function checkout(packId = pack.id) {
  return post(t.app, '/payment/checkout', { packId }, { token: user.token });
}

async function deliver(type: string, object: unknown, options?: Parameters<FakeStripe['signedEvent']>[2]) {
  const { payload, signature } = stripe.signedEvent(type, object, options);
  const res = await t.app.request('/payment/webhook', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
  return { status: res.status, body: await res.json() };
}

/** Starts a checkout and returns the paid session object Stripe would put in checkout.session.completed. */
async function paidSession() {
  const started = await checkout();
  const session = stripe.sessions.get(started.body.data.sessionId)!;
  return { ...session, payment_status: 'paid', status: 'complete', payment_intent: `pi_${session.id}` };
}

/** A paid session whose pack has been granted (its checkout.session.completed delivered). */
async function grantedSession() {
  const session = await paidSession();
  await deliver('checkout.session.completed', session);
  return session;
}

/** Stripe's charge.refunded for the session's payment: `amountRefunded` is the total refunded so far. */
function refunded(session: { payment_intent: string }, chargeId: string, amountRefunded: number) {
  return deliver('charge.refunded', {
    id: chargeId,
    object: 'charge',
    payment_intent: session.payment_intent,
    amount_refunded: amountRefunded,
  });
}

describe('POST /payment/checkout', () => {
  it('creates a Checkout Session for the pack and returns its URL; no credits yet', async () => {
    const res = await checkout();
    expect(res.body.code).toBe(0);
    expect(res.body.data.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\/cs_test_/);
    const session = stripe.sessions.get(res.body.data.sessionId)!;
    expect(session.amount_total).toBe(pack.priceMinor);
    expect(session.client_reference_id).toBe(user.userId);
    expect(session.success_url).toBe('https://site.example/payment?status=success&session_id={CHECKOUT_SESSION_ID}');
    expect(await balance()).toBe(0);
  });

  it('refuses an unknown pack with a 400 naming the field', async () => {
    const res = await checkout('gold-bars');
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(`packId: ${PAYMENT_MESSAGES.unknownPack}`);
  });

  it('answers 40001 without a session', async () => {
    const res = await post(t.app, '/payment/checkout', { packId: pack.id });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(40001);
  });

  it('explains that payments are not configured when Stripe keys are missing', async () => {
    const bare = await createAccountsTestApp();
    const someone = await signIn(bare, 'x@example.com');
    const res = await post(bare.app, '/payment/checkout', { packId: pack.id }, { token: someone.token });
    expect(res.status).toBe(503);
    expect(res.body.msg).toBe(PAYMENT_MESSAGES.notConfigured);
    const packs = await bare.app.request('/payment/packs');
    expect((await packs.json()).data.enabled).toBe(false);
    await bare.close();
  });
});

describe('POST /payment/webhook', () => {
  it('grants the pack once for checkout.session.completed, as a ledger row referencing the payment', async () => {
    const session = await paidSession();
    const res = await deliver('checkout.session.completed', session);
    expect(res.body.data.outcome).toBe('granted');
    expect(await balance()).toBe(pack.credits);
    const rows = await ledger();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ delta: pack.credits, reason: 'purchase', reference: session.id });
  });

  it('grants once when the same event is delivered twice', async () => {
    const session = await paidSession();
    const { payload, signature } = stripe.signedEvent('checkout.session.completed', session, { id: 'evt_twice' });
    for (let i = 0; i < 2; i++) {
      await t.app.request('/payment/webhook', {
        method: 'POST',
        headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
        body: payload,
      });
    }
    expect(await balance()).toBe(pack.credits);
    expect(await ledger()).toHaveLength(1);
  });

  it('grants once when two copies arrive concurrently, and when a second event type names the same session', async () => {
    const session = await paidSession();
    const same = stripe.signedEvent('checkout.session.completed', session, { id: 'evt_concurrent' });
    const send = (e: { payload: string; signature: string }) =>
      t.app.request('/payment/webhook', {
        method: 'POST',
        headers: { 'stripe-signature': e.signature },
        body: e.payload,
      });
    const other = stripe.signedEvent('checkout.session.async_payment_succeeded', session);
    const results = await Promise.all([send(same), send(same), send(other)]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await balance()).toBe(pack.credits);
    expect(await ledger()).toHaveLength(1);
  });

  it('does not grant an unpaid session', async () => {
    const started = await checkout();
    const res = await deliver('checkout.session.completed', stripe.sessions.get(started.body.data.sessionId));
    expect(res.body.data.outcome).toBe('ignored');
    expect(await balance()).toBe(0);
  });

  // Timestamps are taken when the case runs, not when the file loads: a slow run would otherwise age them.
  it.each([
    ['a forged signature', () => ({ secret: 'whsec_somebody_else' })],
    ['a stale timestamp (older than the 5-minute tolerance)', (nowS: number) => ({ timestamp: nowS - 3600 })],
    ['a timestamp an hour in the future', (nowS: number) => ({ timestamp: nowS + 3600 })],
    [
      'a timestamp just past the tolerance in the future',
      (nowS: number) => ({ timestamp: nowS + STRIPE_WEBHOOK_TOLERANCE_S + 5 }),
    ],
  ])('refuses %s and grants nothing', async (_name, signing) => {
    const session = await paidSession();
    const res = await deliver('checkout.session.completed', session, signing(Math.floor(Date.now() / 1000)));
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(PAYMENT_MESSAGES.badSignature);
    expect(await balance()).toBe(0);
  });

  it('accepts a timestamp a few seconds ahead of the clock, as a sender with a slightly fast clock signs', async () => {
    const session = await paidSession();
    const res = await deliver('checkout.session.completed', session, { timestamp: Math.floor(Date.now() / 1000) + 10 });
    expect(res.status).toBe(200);
    expect(res.body.data.outcome).toBe('granted');
    expect(await balance()).toBe(pack.credits);
  });

  it('refuses a header with a second, current timestamp in front of a future-signed one', async () => {
    const session = await paidSession();
    const { payload, signature } = stripe.signedEvent('checkout.session.completed', session, {
      timestamp: Math.floor(Date.now() / 1000) + 3600,
    });
    const res = await t.app.request('/payment/webhook', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': `t=${Math.floor(Date.now() / 1000)},${signature}`,
      },
      body: payload,
    });
    expect(res.status).toBe(400);
    expect(await balance()).toBe(0);
  });

  it('refuses a missing signature header', async () => {
    const res = await postJson(t.app, '/payment/webhook', { id: 'evt_x', type: 'checkout.session.completed' });
    expect(res.status).toBe(400);
  });

  it('a full refund deducts the pack and says so in the history', async () => {
    const session = await grantedSession();
    await refunded(session, 'ch_1', pack.priceMinor);
    expect(await balance()).toBe(0);
    expect((await ledger()).at(-1)).toMatchObject({ delta: -pack.credits, reason: 'refund', reference: session.id });
  });

  it('a partial refund deducts in proportion, and a later full refund only the rest', async () => {
    const session = await grantedSession();
    await refunded(session, 'ch_2', pack.priceMinor / 2);
    expect(await balance()).toBe(pack.credits / 2);
    await refunded(session, 'ch_2', pack.priceMinor);
    expect(await balance()).toBe(0);
  });

  it('a refund after the credits were spent deducts only down to zero, never below', async () => {
    const session = await grantedSession();
    await t.database.db.updateTable('users').set({ credits: 100 }).where('id', '=', user.userId).execute();
    await refunded(session, 'ch_3', pack.priceMinor);
    expect(await balance()).toBe(0);
    expect((await ledger()).at(-1)).toMatchObject({ delta: -100, reason: 'refund' });
  });

  it('a dispute deducts what is left of the pack', async () => {
    const session = await grantedSession();
    await deliver('charge.dispute.created', { id: 'dp_1', object: 'dispute', payment_intent: session.payment_intent });
    expect(await balance()).toBe(0);
    expect((await ledger()).at(-1)).toMatchObject({ reason: 'dispute', delta: -pack.credits });
  });
});
