// What a run costs on this server, read from the features answer (whether an AI model may make it, NO_MODEL_PRICE):
// the playground's cost lines, its examples and the reference's Try it all price a run here.
import {
  FEATURE_MESSAGES,
  NO_MODEL_PRICE_DEFAULT,
  previewPrice,
  runsFree,
  type Feature,
  type PriceInput,
  type RunBilling,
} from '../product-rules';
import type { FeatureMap } from '../stores/offer';

/**
 * What the server will take into account besides the measures, from the features answer. While it is unknown the
 * full price is assumed, which is never less than what is held.
 */
export function billingOf(feature: Feature, features: FeatureMap | null): RunBilling {
  const state = features?.get(feature);
  return state?.available
    ? { usesModel: state.usesModel, noModelPrice: state.noModelPrice }
    : { usesModel: true, noModelPrice: NO_MODEL_PRICE_DEFAULT };
}

/**
 * Credits for a feature, or null while a measure it needs (seconds of an upload) is not known yet; 0 when the run is
 * free here. Without the features answer, the full price.
 */
export function costHere(feature: Feature, p: PriceInput, features: FeatureMap | null): number | null {
  return previewPrice(feature, p, billingOf(feature, features));
}

/** Why a run is free here, e.g. "Free here: preview engine (no AI model)"; null when it is charged (or unknown). */
export function freeHereNote(feature: Feature, features: FeatureMap | null): string | null {
  const state = features?.get(feature);
  if (!state?.engineLabel || !runsFree(billingOf(feature, features))) return null;
  return FEATURE_MESSAGES.free(state.engineLabel);
}
