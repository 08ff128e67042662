// What this server serves and what a run without an AI model costs: the features answer's notes, NO_MODEL_PRICE and its
// charge.
import { engineLabel } from './engines';
import { FEATURE_MESSAGES } from './feature-messages';
import { featurePrice, priceItem, quote, TEXT_TO_VIDEO_OPTIONS, type Feature, type PriceInput } from './pricing';

/** Engines that make their output without an AI model: the offline speech synthesizer and the ffmpeg preview scenes. */
export const NO_MODEL_ENGINES: readonly string[] = ['espeak', 'preview'];

export function engineUsesModel(name: string): boolean {
  return !NO_MODEL_ENGINES.includes(name);
}

/** NO_MODEL_PRICE: a run on an engine with no AI model is free (the default) or charged the full SPEC.md §9 price. */
export const NO_MODEL_PRICES = ['free', 'full'] as const;
export type NoModelPrice = (typeof NO_MODEL_PRICES)[number];
export const NO_MODEL_PRICE_DEFAULT: NoModelPrice = 'free';

/**
 * What a run's price depends on besides its measures: whether its engine (any of its fallback chain, before it runs)
 * uses an AI model.
 */
export interface RunBilling {
  usesModel: boolean;
  noModelPrice: NoModelPrice;
}

/**
 * Credits one run costs: the §9 price of its measures, or 0 when no AI model makes it and NO_MODEL_PRICE is free.
 * The server holds and settles with this function and the playground's cost preview calls it, so they agree.
 */
export function runCredits(
  feature: Feature,
  measures: PriceInput,
  billing: RunBilling,
): { itemId: string; credits: number; free: boolean } {
  const { itemId, params } = featurePrice(feature, measures);
  const free = !billing.usesModel && billing.noModelPrice === 'free';
  return { itemId, credits: free ? 0 : quote(itemId, params), free };
}

/** The price of one run of a feature in words, e.g. "1 credit per 250 characters" or "20 to 180 credits a clip". */
export function featurePriceText(feature: Feature): string {
  const range = (ids: readonly string[]) => {
    const credits = ids.map((id) => quote(id));
    return `${Math.min(...credits)} to ${Math.max(...credits)} credits a clip`;
  };
  switch (feature) {
    case 'text-to-video':
    case 'image-to-video':
    case 'character-to-video':
      return range(TEXT_TO_VIDEO_OPTIONS.map((o) => o.itemId));
    case 'wan-text-to-video':
    case 'wan-image-to-video':
      return range(['wan21-5s-480p', 'wan21-5s-720p']);
    default:
      return priceItem(featurePrice(feature, {}).itemId)?.priceText ?? feature;
  }
}

/** The note the features answer gives per feature: where it runs and what a run costs there. */
export function featureNote(feature: Feature, engine: string | null, billing: RunBilling): string {
  if (!engine) return FEATURE_MESSAGES.notAvailableHere;
  if (!billing.usesModel && billing.noModelPrice === 'free') return FEATURE_MESSAGES.free(engineLabel(engine));
  return `${engineLabel(engine)}: ${featurePriceText(feature)}`;
}
