// Credit packs people can buy, and the payment messages; SPEC.md §9 does not show plans, so these are ours.
import { PAYMENTS_OFF } from './payments-off';

export interface CreditPack {
  id: string;
  name: string;
  credits: number;
  /** Price in the currency's smallest unit (cents). */
  priceMinor: number;
  currency: 'usd';
  /** Shown on the card; undefined for the base pack. */
  badge?: string;
}

/** Larger packs give more credits per dollar, as peers' top-ups do; the base rate is 100 credits per dollar. */
export const CREDIT_PACKS: readonly CreditPack[] = [
  { id: 'starter', name: 'Starter', credits: 1_000, priceMinor: 1_000, currency: 'usd' },
  { id: 'creator', name: 'Creator', credits: 5_500, priceMinor: 5_000, currency: 'usd', badge: '10% bonus' },
  { id: 'studio', name: 'Studio', credits: 12_000, priceMinor: 10_000, currency: 'usd', badge: '20% bonus' },
];

export function creditPack(id: string): CreditPack | undefined {
  return CREDIT_PACKS.find((pack) => pack.id === id);
}

export function formatPrice(pack: Pick<CreditPack, 'priceMinor' | 'currency'>): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: pack.currency.toUpperCase(),
    maximumFractionDigits: 0,
  }).format(pack.priceMinor / 100);
}

export const PAYMENT_MESSAGES = {
  /** The API's refusal (503) of a checkout while payments are off; the pages say PAYMENTS_OFF before any click. */
  notConfigured: `${PAYMENTS_OFF.reason} Please contact support.`,
  unknownPack: 'Unknown credit pack; choose one of the packs on the pricing page',
  checkoutFailed: 'The payment page could not be opened; please try again in a moment',
  badSignature: 'Webhook signature is missing, forged, or its timestamp is more than 5 minutes from now',
  notYetRecorded:
    'This refund or dispute belongs to a purchase whose payment has not been recorded yet; send it again later',
} as const;

/**
 * How long a purchase can stay pending: Stripe Checkout Sessions expire after 24 hours. A refund or dispute that
 * matches no recorded payment while a purchase younger than this is still pending may belong to it (Stripe does
 * not promise event order), so it is refused for Stripe to send again rather than dropped.
 */
export const CHECKOUT_PENDING_MS = 24 * 60 * 60 * 1000;

/**
 * How far a webhook's signed timestamp may be from the server's clock, either way (Stripe's default tolerance).
 * Older events are replays; newer ones were signed for later, which a correct sender never does.
 */
export const STRIPE_WEBHOOK_TOLERANCE_S = 300;

/** Ledger reasons for payment changes, shown in the billing history. */
export const PAYMENT_LEDGER_REASONS = {
  purchase: 'purchase',
  refund: 'refund',
  dispute: 'dispute',
} as const;
