// Engine registry: which engine serves which feature, chosen by configuration (ENGINES=feature=engine,…).
import { AppError } from '../http/errors';
import { ERROR_CODES } from '../../src/lib/spec/errors';
import type { Feature } from '../../src/lib/spec/tasks';
import { espeakEngine } from './espeak';
import type { Engine } from './types';

export type { Engine, EngineContext, EngineOutput, EngineResult } from './types';
export { EngineInputError } from './types';
export { synthesize } from './espeak';

export interface EngineRegistry {
  /** The engine configured for a feature; refuses with a message naming what to configure when none is. */
  forFeature(feature: Feature): Engine;
  byName(name: string): Engine | undefined;
  configured(feature: Feature): boolean;
}

/**
 * Builds the registry from the configured map. `extra` lets a deployment (or a test) add engines by name;
 * a name in the map with no engine behind it is a configuration error found at start, not at submit.
 */
export function createEngineRegistry(map: Partial<Record<Feature, string>>, extra: Engine[] = []): EngineRegistry {
  const engines = new Map<string, Engine>();
  for (const engine of [espeakEngine(), ...extra]) engines.set(engine.name, engine);
  for (const [feature, name] of Object.entries(map)) {
    const engine = engines.get(name);
    if (!engine) throw new Error(`ENGINES: no engine named "${name}" (for ${feature}); available: ${[...engines.keys()].join(', ')}`);
    if (!engine.features.includes(feature as Feature)) throw new Error(`ENGINES: engine "${name}" cannot serve ${feature}; it serves ${engine.features.join(', ')}`);
  }
  return {
    forFeature(feature) {
      const name = map[feature];
      const engine = name ? engines.get(name) : undefined;
      if (!engine) {
        // A 4xx: the request cannot be served as configured, and retrying it unchanged will not help.
        throw new AppError(
          400,
          ERROR_CODES.invalidInput,
          `${feature} is not available on this server: no engine is configured for it. Set ENGINES to include ${feature}=<engine> (see docs/configuration.md)`,
        );
      }
      return engine;
    },
    byName: (name) => engines.get(name),
    configured: (feature) => Boolean(map[feature] && engines.has(map[feature]!)),
  };
}
