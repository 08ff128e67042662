// Builds the Stripe client from configuration; STRIPE_API_BASE points it elsewhere (a local fake in tests).
import Stripe from 'stripe';
import type { Config } from '../config';

export type StripeConfig = NonNullable<Config['stripe']>;

export function createStripeClient(config: StripeConfig): Stripe {
  const options: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 2, timeout: 20_000 };
  if (config.apiBase) {
    const base = new URL(config.apiBase);
    options.host = base.hostname;
    options.port = base.port || (base.protocol === 'https:' ? '443' : '80');
    options.protocol = base.protocol === 'https:' ? 'https' : 'http';
  }
  return new Stripe(config.secretKey, options);
}
