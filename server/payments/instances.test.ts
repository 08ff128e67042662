// Stripe events reaching two instances on one PostgreSQL database at the same moment: each purchase is granted once and
// the ledger sums to the balance.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CREDIT_PACKS } from '../../src/lib/product-rules';
import { fakeStripeEnv, startFakeStripe, type FakeStripe } from '../test-support/fake-stripe';
import { appInstances, postgresSkipReason, type Instance, type Instances } from '../test-support/instances';
import { createUser, creditState, type TestUser } from '../test-support/tasks';

const skipReason = await postgresSkipReason();
if (skipReason) console.warn(`Stripe events across instances skipped: ${skipReason}`);

/** Credits the buyer holds besides the purchase, so a second grant or a lost one shows in the balance. */
const OTHER_CREDITS = 10_000;
const starter = CREDIT_PACKS.find((p) => p.id === 'starter')!;

describe.skipIf(skipReason !== null)(
  `Stripe events across two instances on PostgreSQL (skipped when: ${skipReason ?? 'never'})`,
  () => {
    let stripe: FakeStripe;
    let instances: Instances;
    let a: Instance;
    let b: Instance;
    let user: TestUser;
    beforeAll(async () => {
      stripe = await startFakeStripe();
    });
    afterAll(() => stripe?.close());
    beforeEach(async () => {
      instances = await appInstances(2, fakeStripeEnv(stripe));
      [a, b] = instances.list as [Instance, Instance];
      user = await createUser(a, OTHER_CREDITS);
    });
    afterEach(() => instances.close());

    /** Delivers one signed event (the same bytes when `event` is reused) to an instance; answers status and outcome. */
    async function deliver(instance: Instance, event: { payload: string; signature: string }) {
      const res = await instance.app.request('/payment/webhook', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
        body: event.payload,
      });
      const body = (await res.json()) as { data?: { outcome?: string } };
      return { status: res.status, outcome: body.data?.outcome };
    }

    /** Buys the starter pack through instance A's checkout; answers the session as Stripe reports it once paid. */
    async function buy() {
      const res = await a.app.request('/payment/checkout', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', token: user.token },
        body: new URLSearchParams({ packId: starter.id }).toString(),
      });
      expect(res.status).toBe(200);
      const sessionId = ((await res.json()) as { data: { sessionId: string } }).data.sessionId;
      return {
        ...stripe.sessions.get(sessionId)!,
        payment_status: 'paid',
        status: 'complete',
        payment_intent: `pi_${sessionId}`,
      };
    }

    async function expectGrantedOnce(answers: { status: number; outcome: string | undefined }[], purchases = 1) {
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
      expect(answers.filter((r) => r.outcome === 'granted')).toHaveLength(purchases);
      const s = await creditState(b, user.id);
      expect(s.ledger.filter((r) => r.reason === 'purchase')).toHaveLength(purchases);
      expect(s.balance).toBe(OTHER_CREDITS + purchases * starter.credits);
      expect(s.ledgerSum).toBe(s.balance);
    }

    it('the same checkout.session.completed event sent to both instances at once grants the pack once', async () => {
      const session = await buy();
      const event = stripe.signedEvent('checkout.session.completed', session, { id: `evt_same_${session.id}` });
      const answers = await Promise.all([deliver(a, event), deliver(b, event)]);
      await expectGrantedOnce(answers);
      // The event id is remembered once, whichever instance stored it.
      const stored = await a.database.db
        .selectFrom('stripe_events')
        .select('id')
        .where('id', '=', `evt_same_${session.id}`)
        .execute();
      expect(stored).toHaveLength(1);
    });

    it('copies with different event ids, spread over both instances at once, grant the pack once', async () => {
      const session = await buy();
      const copies = Array.from({ length: 6 }, () => stripe.signedEvent('checkout.session.completed', session));
      copies.push(stripe.signedEvent('checkout.session.async_payment_succeeded', session));
      const answers = await Promise.all(copies.map((event, i) => deliver(i % 2 === 0 ? a : b, event)));
      await expectGrantedOnce(answers);
    });

    it('several purchases, each sent to both instances at once with the same and with other event ids, are each granted once', async () => {
      const sessions = [await buy(), await buy(), await buy()];
      const sends = sessions.flatMap((session) => {
        const same = stripe.signedEvent('checkout.session.completed', session);
        const other = stripe.signedEvent('checkout.session.completed', session);
        return [deliver(a, same), deliver(b, same), deliver(b, other), deliver(a, other)];
      });
      await expectGrantedOnce(await Promise.all(sends), sessions.length);
      const payments = await b.database.db
        .selectFrom('payments')
        .select(['id', 'status'])
        .where('user_id', '=', user.id)
        .execute();
      expect(payments).toHaveLength(sessions.length);
    });
  },
);
