// Where the payments spec's local Stripe stand-in listens, and the server settings that point at it.
import { FAKE_STRIPE_SECRET_KEY, FAKE_STRIPE_WEBHOOK_SECRET } from '../../../server/test-support/fake-stripe';

export function stripePort(appPort: number): number {
  // After the account specs' SMTP (+1000) and identity providers (+1001, +1002).
  return appPort + 1003;
}

export function paymentsServerEnv(appPort: number): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
    STRIPE_API_BASE: `http://127.0.0.1:${stripePort(appPort)}`,
  };
}
