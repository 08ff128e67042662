// A local stand-in for the Stripe API endpoints the server calls (Checkout Sessions), plus a hosted
// "checkout page" that, like Stripe, sends the signed webhook and returns the browser to success_url.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export const FAKE_STRIPE_SECRET_KEY = 'sk_test_fake_local';
export const FAKE_STRIPE_WEBHOOK_SECRET = 'whsec_fake_local_signing_secret';

interface FakeSession {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: 'payment';
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  payment_intent: string | null;
}

export interface FakeStripe {
  url: string;
  sessions: Map<string, FakeSession>;
  /** Where the hosted checkout page delivers its webhook (the server under test). */
  webhookUrl: string | null;
  /** A signed event as Stripe would send it, using the stripe package's own test-header helper. */
  signedEvent(
    type: string,
    object: unknown,
    options?: { timestamp?: number; secret?: string; id?: string },
  ): { payload: string; signature: string };
  close(): Promise<void>;
}

const stripeHelpers = new Stripe(FAKE_STRIPE_SECRET_KEY);

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export async function startFakeStripe(options: { port?: number; webhookUrl?: string } = {}): Promise<FakeStripe> {
  const sessions = new Map<string, FakeSession>();
  let base = '';
  const fake: FakeStripe = {
    url: '',
    sessions,
    webhookUrl: options.webhookUrl ?? null,
    signedEvent(type, object, options = {}) {
      const payload = JSON.stringify({
        id: options.id ?? id('evt'),
        object: 'event',
        type,
        created: Math.floor(Date.now() / 1000),
        data: { object },
      });
      const signature = stripeHelpers.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? FAKE_STRIPE_WEBHOOK_SECRET,
        timestamp: options.timestamp,
      });
      return { payload, signature };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      if (req.headers.authorization !== `Bearer ${FAKE_STRIPE_SECRET_KEY}`) {
        res
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key' } }));
        return;
      }
      const form = await readForm(req);
      const sessionId = id('cs_test');
      const session: FakeSession = {
        id: sessionId,
        object: 'checkout.session',
        url: `${base}/pay/${sessionId}`,
        mode: 'payment',
        payment_status: 'unpaid',
        status: 'open',
        amount_total: Number(form.get('line_items[0][price_data][unit_amount]') ?? 0),
        currency: form.get('line_items[0][price_data][currency]') ?? 'usd',
        client_reference_id: form.get('client_reference_id'),
        metadata: Object.fromEntries(
          [...form].filter(([k]) => k.startsWith('metadata[')).map(([k, v]) => [k.slice(9, -1), v]),
        ),
        success_url: form.get('success_url') ?? '',
        cancel_url: form.get('cancel_url') ?? '',
        payment_intent: null,
      };
      sessions.set(sessionId, session);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(session));
      return;
    }
    const pay = /^\/pay\/(cs_test_[0-9a-f]+)$/.exec(url.pathname);
    if (req.method === 'GET' && pay) {
      const session = sessions.get(pay[1]!);
      if (!session || !fake.webhookUrl) {
        res.writeHead(404).end('unknown checkout session');
        return;
      }
      // The customer "pays": Stripe marks the session paid, sends the webhook, then redirects to success_url.
      Object.assign(session, { payment_status: 'paid', status: 'complete', payment_intent: id('pi') });
      const { payload, signature } = fake.signedEvent('checkout.session.completed', session);
      await fetch(fake.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
      res.writeHead(303, { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id) }).end();
      return;
    }
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: `no route ${req.method} ${url.pathname}` } }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = base;
  return fake;
}

export function fakeStripeEnv(fake: FakeStripe): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
  };
}
