// What the features answer says of each feature's price: the price in words, or that a run is free here (what a run
// costs is computed in pricing/run-price.ts).
import { engineLabel } from './engines';
import { FEATURE_MESSAGES } from './feature-messages';
import {
  featurePrice,
  priceItem,
  quote,
  runsFree,
  TEXT_TO_VIDEO_OPTIONS,
  type Feature,
  type RunBilling,
} from './pricing';

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
  if (runsFree(billing)) return FEATURE_MESSAGES.free(engineLabel(engine));
  return `${engineLabel(engine)}: ${featurePriceText(feature)}`;
}
