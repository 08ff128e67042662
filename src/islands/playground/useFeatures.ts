// Which features this server can run (GET task/v1/features), loaded once per page for the signed-in user.
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import type { Feature } from '../../lib/spec';
import { $loggedIn } from '../../lib/stores/session';
import { playgroundApi, type FeatureState } from './api';

let pending: Promise<FeatureState[]> | null = null;

/** null while unknown (a guest, or still loading): screens then let the server decide at submit. */
export function useFeatures(): Map<Feature, FeatureState> | null {
  const loggedIn = useStore($loggedIn);
  const [map, setMap] = useState<Map<Feature, FeatureState> | null>(null);
  useEffect(() => {
    if (!loggedIn) return;
    pending ??= playgroundApi.features().catch((e: unknown) => {
      pending = null;
      throw e;
    });
    let live = true;
    pending.then((list) => live && setMap(new Map(list.map((f) => [f.feature, f])))).catch(() => {
      // Unknown availability is not an error for the person: the submit answer will say it.
    });
    return () => {
      live = false;
    };
  }, [loggedIn]);
  return map;
}

/** The message shown while a feature has no engine on this server, or null when it can run (or is unknown). */
export function unavailableText(map: Map<Feature, FeatureState> | null, feature: Feature, title: string): string | null {
  const state = map?.get(feature);
  if (!state || state.available) return null;
  return `${title} is not configured on this server yet: no engine is set for "${feature}". The operator can enable it with the ENGINES setting (docs/configuration.md).`;
}
