// Which features this server serves and at what price (the public GET task/v1/features), loaded once per page for
// everyone.
import { startTransition, useEffect, useState } from 'react';
import { FEATURE_MESSAGES, type Feature } from '../../lib/product-rules';
import { loadFeatures, type FeatureMap } from '../../lib/site/features';

/**
 * null while unknown (still loading, or the server could not be asked): screens then let the server decide at submit.
 */
export function useFeatures(): FeatureMap | null {
  // Null on the first render even when the answer is already here, as in the pre-rendered HTML (no hydration mismatch).
  const [map, setMap] = useState<FeatureMap | null>(null);
  useEffect(() => {
    let live = true;
    loadFeatures().then(
      // Prices and availability re-render the whole screen: as a transition, in slices, right after hydrating.
      (loaded) => live && startTransition(() => setMap(loaded)),
      // Unknown availability is not an error for the person: the submit answer will say it.
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return map;
}

/**
 * Why a screen's submit is disabled: the chosen feature (e.g. Pro quality) is not served here, or null when it can run
 * or it is unknown. What the operator would configure is never said to people (docs/engines.md says it to operators).
 */
export function unavailableText(map: FeatureMap | null, feature: Feature, title: string): string | null {
  const state = map?.get(feature);
  if (!state || state.available) return null;
  return FEATURE_MESSAGES.optionUnavailable(title);
}
