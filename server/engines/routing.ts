// Which engines serve a feature when ENGINES does not say: every provider with a key that serves it, then the offline
// default.
import { FEATURES, type Feature } from '../../src/lib/product-rules';
import type { Engine } from './types';

/**
 * A deployment that sets a provider's key expects that provider to be used without also writing ENGINES;
 * the offline engine stays behind it as the fallback. Features ENGINES names keep exactly what it says.
 */
export function routeFeatures(
  configured: Partial<Record<Feature, readonly string[]>>,
  given: readonly Feature[],
  providers: readonly Engine[],
): Partial<Record<Feature, string[]>> {
  const routes: Partial<Record<Feature, string[]>> = {};
  for (const feature of FEATURES) {
    const names = given.includes(feature)
      ? (configured[feature] ?? [])
      : [...providers.filter((e) => e.features.includes(feature)).map((e) => e.name), ...(configured[feature] ?? [])];
    const unique = [...new Set(names)];
    if (unique.length > 0) routes[feature] = unique;
  }
  return routes;
}
