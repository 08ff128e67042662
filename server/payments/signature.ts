// Verifies a Stripe webhook: the HMAC by the stripe package, and its timestamp within the tolerance in both directions.
import type Stripe from 'stripe';
import { STRIPE_WEBHOOK_TOLERANCE_S } from '../../src/lib/product-rules';

export class WebhookSignatureError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'WebhookSignatureError';
  }
}

/**
 * The `t=` value the signature covers. The stripe package reads the last `t=` item, so more than one (or none)
 * is refused rather than guessing which one it used.
 */
function signedTimestamp(header: string): number {
  const values = header
    .split(',')
    .map((item) => item.split('='))
    .filter(([key]) => key === 't')
    .map(([, value]) => value ?? '');
  if (values.length !== 1 || !/^\d{1,12}$/.test(values[0]!))
    throw new WebhookSignatureError('no single timestamp in the signature header');
  return Number(values[0]);
}

/**
 * Answers the verified event or throws. The package only rejects timestamps older than the tolerance; one
 * signed for the future is refused here too, so a leaked event cannot be held and replayed later.
 */
export async function verifyStripeEvent(
  stripe: Stripe,
  payload: string,
  header: string,
  secret: string,
  nowMs = Date.now(),
): Promise<Stripe.Event> {
  if (header === '') throw new WebhookSignatureError('missing signature header');
  const skew = signedTimestamp(header) - Math.floor(nowMs / 1000);
  if (Math.abs(skew) > STRIPE_WEBHOOK_TOLERANCE_S) throw new WebhookSignatureError(`timestamp ${skew} s from now`);
  try {
    return await stripe.webhooks.constructEventAsync(
      payload,
      header,
      secret,
      STRIPE_WEBHOOK_TOLERANCE_S,
      undefined,
      nowMs,
    );
  } catch (error) {
    throw new WebhookSignatureError(error instanceof Error ? error.message : String(error));
  }
}
