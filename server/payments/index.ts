// Public surface of the payments area: checkout, the Stripe client, webhook verification and events.
export { startCheckout, type CheckoutStart } from './checkout';
export { createStripeClient, type StripeConfig } from './stripe-client';
export { verifyStripeEvent, WebhookSignatureError } from './signature';
export { handleStripeEvent, PaymentNotYetRecorded, type EventOutcome } from './webhook';
