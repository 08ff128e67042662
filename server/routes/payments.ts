// Payment routes: the credit packs, a Checkout Session for the signed-in user, and Stripe's signed webhook.
import { Hono } from 'hono';
import { z } from 'zod';
import type Stripe from 'stripe';
import { CREDIT_PACKS, PAYMENT_MESSAGES, creditPack, ERROR_CODES } from '../../src/lib/product-rules';
import { requireUser, type AuthEnv } from '../accounts';
import type { AppDeps } from './deps';
import { AppError, envelope } from '../http/errors';
import { whileReading } from '../http/cut-off';
import { validBody } from '../http/input';
import { bodyCap } from './body-cap';
import {
  createStripeClient,
  handleStripeEvent,
  PaymentNotYetRecorded,
  startCheckout,
  verifyStripeEvent,
} from '../payments';

const checkoutBody = z.object({
  packId: z.string({ error: 'choose a credit pack' }).min(1, 'choose a credit pack').max(64),
});

function notConfigured(): AppError {
  return new AppError(503, ERROR_CODES.unavailable, PAYMENT_MESSAGES.notConfigured);
}

export function paymentRoutes({ config, database, log }: AppDeps) {
  const db = database.db;
  const app = new Hono<AuthEnv>();
  const stripe: Stripe | null = config.stripe ? createStripeClient(config.stripe) : null;
  app.use('*', bodyCap(config.bodyLimitBytes));

  app.get('/packs', (c) => c.json(envelope(0, 'ok', { enabled: stripe !== null, packs: CREDIT_PACKS })));

  app.post('/checkout', requireUser(db, { refuseSuspended: true }), async (c) => {
    const { packId } = await validBody(c, checkoutBody);
    const pack = creditPack(packId);
    if (!pack) throw new AppError(400, ERROR_CODES.invalidInput, `packId: ${PAYMENT_MESSAGES.unknownPack}`);
    if (!stripe) throw notConfigured();
    try {
      const checkout = await startCheckout(db, stripe, c.get('user'), pack, config.siteUrl);
      return c.json(envelope(0, 'ok', checkout));
    } catch (error) {
      log.error('checkout session failed', { error: String(error) });
      throw new AppError(502, ERROR_CODES.unavailable, PAYMENT_MESSAGES.checkoutFailed);
    }
  });

  app.post('/webhook', async (c) => {
    // Without a signing secret nothing can be verified, so the endpoint behaves as if it did not exist.
    if (!stripe || !config.stripe) throw new AppError(404, ERROR_CODES.notFound, PAYMENT_MESSAGES.notConfigured);
    const payload = await whileReading(c, () => c.req.text());
    const signature = c.req.header('stripe-signature') ?? '';
    let event: Stripe.Event;
    try {
      // Checks the HMAC and that the timestamp is within 5 minutes of now either way: forged, replayed-late
      // and future-dated events all fail.
      event = await verifyStripeEvent(stripe, payload, signature, config.stripe.webhookSecret);
    } catch (error) {
      log.warn('stripe webhook refused', { reason: error instanceof Error ? error.message : String(error) });
      throw new AppError(400, ERROR_CODES.invalidInput, PAYMENT_MESSAGES.badSignature);
    }
    let outcome;
    try {
      outcome = await handleStripeEvent(db, event);
    } catch (error) {
      if (!(error instanceof PaymentNotYetRecorded)) throw error;
      log.info('stripe event deferred', { id: event.id, type: event.type, reason: error.message });
      throw new AppError(409, ERROR_CODES.conflict, PAYMENT_MESSAGES.notYetRecorded);
    }
    log.info('stripe event', { id: event.id, type: event.type, outcome });
    return c.json(envelope(0, 'ok', { received: true, outcome }));
  });

  return app;
}
