// The cost preview of each screen: priceInputOf() + previewPrice(), priced as the server holds and charges
// (src/lib/product-rules/pricing/run-price.ts).
import { featurePrice, priceInputOf, priceItem, type Feature, type PriceInput } from '../../lib/product-rules';
import type { FeatureMap } from '../../lib/site/features';
import { costHere, freeHereNote } from '../../lib/site/run-cost';

/**
 * Credits for a feature, or null while a measure it needs (seconds of an upload) is not known yet; 0 when the run is
 * free here. Without the features answer, the full price.
 */
export function costOf(feature: Feature, p: PriceInput, features: FeatureMap | null = null): number | null {
  return costHere(feature, p, features);
}

/**
 * What the cost preview says beside a free run, e.g. "Free here: preview engine (no AI model)"; null when the run is
 * charged.
 */
export const costNote = freeHereNote;

/**
 * The unit price a screen states beside its input (e.g. the speech text's "… per 100 characters"): the free note when
 * the run is free here, so the line agrees with the cost below it, else the price list's wording.
 */
export function unitPriceText(feature: Feature, features: FeatureMap | null): string | undefined {
  return costNote(feature, features) ?? priceItem(featurePrice(feature, {}).itemId)?.priceText;
}

/** A price tag beside a choice: "60 cr", or "free" where this server runs it free, as the cost below then says. */
export function priceTag(credits: number | null, unit = ''): string {
  return credits === 0 ? 'free' : `${credits ?? '—'} cr${unit}`;
}

/** A per-second rate in words: "1 credit per second", "3 credits per second". */
export function perSecondText(credits: number | null): string {
  return `${credits ?? '—'} ${credits === 1 ? 'credit' : 'credits'} per second`;
}

export function speechCost(
  text: string,
  quality: 'common' | 'pro',
  cloned = false,
  features: FeatureMap | null = null,
): number {
  const feature: Feature = cloned ? 'tts-clone' : quality === 'pro' ? 'tts-pro' : 'tts-common';
  return costOf(feature, priceInputOf(feature, { text }), features) ?? 0;
}

export function dialogueCost(lines: ReadonlyArray<{ text: string }>, features: FeatureMap | null = null): number {
  return costOf('dialogue', priceInputOf('dialogue', { lines }), features) ?? 0;
}
