// The cost preview of each screen: the same priceInputOf() + featurePrice() + quote() the server charges with (SPEC.md §9).
import { featurePrice, priceInputOf, quote, type Feature, type PriceInput } from '../../lib/spec';

/** Credits for a feature, or null while a measure it needs (seconds of an upload) is not known yet. */
export function costOf(feature: Feature, p: PriceInput): number | null {
  const { itemId, params } = featurePrice(feature, p);
  if ('seconds' in params && p.seconds === undefined) return null;
  return quote(itemId, params);
}

export function speechCost(text: string, quality: 'common' | 'pro', cloned = false): number {
  const feature: Feature = cloned ? 'tts-clone' : quality === 'pro' ? 'tts-pro' : 'tts-common';
  return costOf(feature, priceInputOf(feature, { text })) ?? 0;
}

export function dialogueCost(lines: ReadonlyArray<{ text: string }>): number {
  return costOf('dialogue', priceInputOf('dialogue', { lines })) ?? 0;
}
