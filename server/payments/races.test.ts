// Webhook events that arrive together, again or out of order, on SQLite and (with TEST_DATABASE_URL) PostgreSQL: each
// purchase is granted once and clawed back at most once.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CREDIT_PACKS } from '../../src/lib/product-rules';
import { fakeStripeEnv, startFakeStripe, type FakeStripe } from '../test-support/fake-stripe';
import { createTasksTestApp, createUser, creditState, type TasksTestApp, type TestUser } from '../test-support/tasks';
import { APP_DATABASES } from '../test-support/app-databases';

const engines = APP_DATABASES;

/** Credits the buyer holds besides the purchase, so a claw-back taking too much shows in the balance. */
const OTHER_CREDITS = 10_000;
const starter = CREDIT_PACKS.find((p) => p.id === 'starter')!;
const creator = CREDIT_PACKS.find((p) => p.id === 'creator')!;

let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe.close());

describe.each(engines)('concurrent Stripe events on $label', ({ postgres }) => {
  let t: TasksTestApp;
  let user: TestUser;
  beforeEach(async () => {
    t = await createTasksTestApp({ postgres, env: fakeStripeEnv(stripe) });
    user = await createUser(t, OTHER_CREDITS);
  });
  afterEach(() => t.close());

  function send(type: string, object: unknown, id?: string) {
    const { payload, signature } = stripe.signedEvent(type, object, id ? { id } : {});
    return t.app.request('/payment/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
  }

  /** Buys a pack through checkout and the completed-session webhook; answers the paid session. */
  async function buy(pack = starter) {
    const res = await t.app.request('/payment/checkout', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', token: user.token },
      body: new URLSearchParams({ packId: pack.id }).toString(),
    });
    const sessionId = ((await res.json()) as { data: { sessionId: string } }).data.sessionId;
    const session = {
      ...stripe.sessions.get(sessionId)!,
      payment_status: 'paid',
      status: 'complete',
      payment_intent: `pi_${sessionId}`,
    };
    return session;
  }

  async function grant(session: Awaited<ReturnType<typeof buy>>) {
    const res = await send('checkout.session.completed', session);
    expect(((await res.json()) as { data: { outcome: string } }).data.outcome).toBe('granted');
  }

  const charge = (session: { payment_intent: string }, amountRefunded: number) => ({
    id: `ch_${session.payment_intent}`,
    object: 'charge',
    payment_intent: session.payment_intent,
    amount_refunded: amountRefunded,
  });

  /** The balance, the ledger sum (equal when nothing was lost) and what refunds and disputes took in total. */
  async function state(sessionId: string) {
    const s = await creditState(t, user.id);
    const payment = await t.database.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    const clawRows = s.ledger.filter(
      (r) => r.reference === sessionId && (r.reason === 'refund' || r.reason === 'dispute'),
    );
    return {
      balance: s.balance,
      ledgerSum: s.ledgerSum,
      taken: -clawRows.reduce((n, r) => n + r.delta, 0),
      clawedBack: payment.credits_clawed_back,
      payment,
    };
  }

  async function expectAllOk(responses: Response[]) {
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
  }

  it('six charge.refunded events with different ids for one purchase take the pack once', async () => {
    const session = await buy();
    await grant(session);
    await expectAllOk(
      await Promise.all(Array.from({ length: 6 }, () => send('charge.refunded', charge(session, starter.priceMinor)))),
    );
    const s = await state(session.id);
    expect(s.taken).toBe(starter.credits);
    expect(s.clawedBack).toBe(starter.credits);
    expect(s.balance).toBe(OTHER_CREDITS);
    expect(s.ledgerSum).toBe(s.balance);
  });

  it('a refund and a dispute arriving together take the pack once', async () => {
    // Several purchases, each getting its refund and dispute at the same moment, so the pairs overlap.
    const sessions = [await buy(), await buy(), await buy(), await buy()];
    for (const session of sessions) await grant(session);
    const pairs = sessions.flatMap((session) => [
      send('charge.refunded', charge(session, starter.priceMinor)),
      send('charge.dispute.created', {
        id: `dp_${session.id}`,
        object: 'dispute',
        payment_intent: session.payment_intent,
      }),
    ]);
    await expectAllOk(await Promise.all(pairs));
    for (const session of sessions) expect((await state(session.id)).taken).toBe(starter.credits);
    const s = await creditState(t, user.id);
    expect(s.balance).toBe(OTHER_CREDITS);
    expect(s.ledgerSum).toBe(s.balance);
  });

  it('growing partial refunds arriving together in any order take what the largest one covers', async () => {
    const session = await buy(creator);
    await grant(session);
    // Cumulative amounts as Stripe sends them ($25, $10, $40, and $25 again in a second event for the same state)
    // of a $50 pack of 5,500 credits: $40 refunded covers 4,400 credits.
    expect([creator.priceMinor, creator.credits]).toEqual([5_000, 5_500]);
    await expectAllOk(
      await Promise.all([2_500, 1_000, 4_000, 2_500].map((a) => send('charge.refunded', charge(session, a)))),
    );
    const s = await state(session.id);
    expect(s.taken).toBe(4_400);
    expect(s.payment.refunded_minor).toBe(4_000);
    expect(s.balance).toBe(OTHER_CREDITS + 1_100);
    expect(s.ledgerSum).toBe(s.balance);
  });

  it('partial refunds one by one: in proportion, idempotent per event, never backwards, never more than the pack', async () => {
    const session = await buy(creator);
    await grant(session);
    const outcome = async (res: Response) => ((await res.json()) as { data: { outcome: string } }).data.outcome;
    const first = stripe.signedEvent('charge.refunded', charge(session, 1_500), { id: `evt_partial_${session.id}` });
    const deliverFirst = () =>
      t.app.request('/payment/webhook', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': first.signature },
        body: first.payload,
      });
    expect(await outcome(await deliverFirst())).toBe('deducted');
    expect((await state(session.id)).taken).toBe(1_650); // 30 % of 5,500
    expect(await outcome(await deliverFirst())).toBe('duplicate');
    expect(await outcome(await send('charge.refunded', charge(session, 1_500)))).toBe('ignored');
    // An older cumulative total delivered late changes nothing, not even the recorded refunded amount.
    expect(await outcome(await send('charge.refunded', charge(session, 1_000)))).toBe('ignored');
    expect((await state(session.id)).payment.refunded_minor).toBe(1_500);
    // Not a count of money: refused quietly (200, so Stripe does not retry it), nothing changes.
    const odd = await send('charge.refunded', charge(session, 'lots' as unknown as number));
    expect([odd.status, await outcome(odd)]).toEqual([200, 'ignored']);
    expect((await state(session.id)).taken).toBe(1_650);
    // More than was paid still takes the pack at most.
    await send('charge.refunded', charge(session, 3 * creator.priceMinor));
    const s = await state(session.id);
    expect([s.taken, s.clawedBack]).toEqual([creator.credits, creator.credits]);
    expect(s.balance).toBe(OTHER_CREDITS);
    expect(s.ledgerSum).toBe(s.balance);
  });

  it('copies of the completed-session event with different ids grant the pack once', async () => {
    const session = await buy();
    const responses = await Promise.all([
      ...Array.from({ length: 5 }, () => send('checkout.session.completed', session)),
      send('checkout.session.async_payment_succeeded', session),
    ]);
    await expectAllOk(responses);
    const outcomes = await Promise.all(
      responses.map(async (r) => ((await r.json()) as { data: { outcome: string } }).data.outcome),
    );
    expect(outcomes.filter((o) => o === 'granted')).toHaveLength(1);
    const s = await creditState(t, user.id);
    expect(s.ledger.filter((r) => r.reason === 'purchase')).toHaveLength(1);
    expect(s.balance).toBe(OTHER_CREDITS + starter.credits);
    expect(s.ledgerSum).toBe(s.balance);
  });

  it('a refund that arrives before its purchase is recorded is sent back for later, then takes the pack', async () => {
    const session = await buy();
    const early = stripe.signedEvent('charge.refunded', charge(session, starter.priceMinor), {
      id: `evt_early_${session.id}`,
    });
    const deliver = () =>
      t.app.request('/payment/webhook', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': early.signature },
        body: early.payload,
      });
    // Non-2xx: Stripe keeps the event and delivers it again; its id is not stored, so the redelivery is acted on.
    expect((await deliver()).status).toBe(409);
    await grant(session);
    expect((await deliver()).status).toBe(200);
    const s = await state(session.id);
    expect([s.taken, s.balance]).toEqual([starter.credits, OTHER_CREDITS]);
    expect(s.ledgerSum).toBe(s.balance);
    // With no purchase pending, a refund of some other charge on the account is acknowledged and ignored.
    const other = await send('charge.refunded', {
      id: 'ch_other',
      object: 'charge',
      payment_intent: 'pi_not_ours',
      amount_refunded: 100,
    });
    expect([other.status, ((await other.json()) as { data: { outcome: string } }).data.outcome]).toEqual([
      200,
      'ignored',
    ]);
  });
});
