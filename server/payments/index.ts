// Public surface of the payments area (issue 10).
export { startCheckout, type CheckoutStart } from './checkout';
export { createStripeClient, type StripeConfig } from './stripe-client';
export { handleStripeEvent, type EventOutcome } from './webhook';
