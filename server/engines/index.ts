// Engine registry: which engines serve which feature, in fallback order, with per-engine concurrency and timeouts.
import { AppError } from '../http/errors';
import { ERROR_CODES, ENGINE_DEFAULTS, FEATURE_MESSAGES, engineLabel } from '../../src/lib/product-rules';
import type { Feature } from '../../src/lib/product-rules';
import { espeakEngine } from './espeak';
import { previewEngine } from './preview';
import { semaphore, type Semaphore } from './semaphore';
import type { Engine } from './types';

export type { Engine, EngineContext, EngineOutput, EngineResult, InputMedia } from './types';
export { EngineInputError, EngineUnavailableError, EngineUnsupportedError, ProviderJobOrphaned } from './types';
export type { ProviderJobs } from './types';
export { synthesize } from './espeak';
export { engineLanguages, engineOptions, runOptionProblem } from './options';
export { providerCostSchema, type ProviderCost } from './provider-cost';

export interface EngineLimits {
  concurrency?: Record<string, number>;
  timeoutsMs?: Record<string, number>;
}

export interface FeatureService {
  feature: Feature;
  /** Engines configured, in order, each with whether it can run here and why not. */
  engines: Array<{ name: string; label: string; available: boolean; reason: string | null }>;
  served: boolean;
}

export interface EngineRegistry {
  /** The first available engine of a feature; FeatureUnavailableError (503) when none is. */
  forFeature(feature: Feature): Engine;
  /** The available engines of a feature in fallback order. */
  chain(feature: Feature): Engine[];
  byName(name: string): Engine | undefined;
  configured(feature: Feature): boolean;
  /** One slot of an engine's concurrency: resolves with a release function. */
  acquire(name: string, signal: AbortSignal): Promise<() => void>;
  timeoutMs(name: string): number;
  /** What /healthz and the playground show: every feature and who serves it. */
  describe(features: readonly Feature[]): FeatureService[];
}

/**
 * The registry with every engine it hands out passed through `wrap` once (the same wrapper for the same engine), so
 * a layer (metrics, live status) sees each call without the registry knowing.
 */
export function wrapEngines<R extends EngineRegistry>(registry: R, wrapEngine: (engine: Engine) => Engine): R {
  const wrapped = new WeakMap<Engine, Engine>();
  const wrap = (engine: Engine) => {
    let w = wrapped.get(engine);
    if (!w) wrapped.set(engine, (w = wrapEngine(engine)));
    return w;
  };
  return {
    ...registry,
    forFeature: (feature) => wrap(registry.forFeature(feature)),
    chain: (feature) => registry.chain(feature).map(wrap),
    byName: (name) => {
      const engine = registry.byName(name);
      return engine && wrap(engine);
    },
  };
}

/**
 * No engine serves the feature here: HTTP 503 with its own code and a message for developers. What an operator would
 * change (ENGINES, a provider key, ffmpeg) is `hint`, for the log and /healthz, never for the person calling.
 */
export class FeatureUnavailableError extends AppError {
  constructor(
    readonly feature: Feature,
    readonly hint: string,
  ) {
    super(503, ERROR_CODES.featureUnavailable, FEATURE_MESSAGES.unavailable);
    this.name = 'FeatureUnavailableError';
  }
}

/**
 * Builds the registry from the configured map. `extra` lets a deployment (or a test) add engines by name;
 * a name in the map with no engine behind it is a configuration error found at start, not at submit.
 */
export function createEngineRegistry(
  map: Partial<Record<Feature, string[]>>,
  extra: Engine[] = [],
  limits: EngineLimits = {},
): EngineRegistry {
  const engines = new Map<string, Engine>();
  for (const engine of [espeakEngine(), previewEngine(), ...extra]) engines.set(engine.name, engine);
  for (const [feature, names] of Object.entries(map)) {
    for (const name of names) {
      const engine = engines.get(name);
      if (!engine)
        throw new Error(
          `ENGINES: no engine named "${name}" (for ${feature}); available: ${[...engines.keys()].join(', ')} (provider engines need their API key set)`,
        );
      if (!engine.features.includes(feature as Feature))
        throw new Error(`ENGINES: engine "${name}" cannot serve ${feature}; it serves ${engine.features.join(', ')}`);
    }
  }
  const slots = new Map<string, Semaphore>();
  const slot = (name: string) => {
    let s = slots.get(name);
    if (!s) slots.set(name, (s = semaphore(limits.concurrency?.[name] ?? ENGINE_DEFAULTS.concurrency)));
    return s;
  };
  const names = (feature: Feature) => map[feature] ?? [];
  const chain = (feature: Feature) =>
    names(feature)
      .map((n) => engines.get(n)!)
      .filter((e) => !e.unavailable?.());

  return {
    forFeature(feature) {
      const list = chain(feature);
      if (list[0]) return list[0];
      if (names(feature).length === 0) {
        throw new FeatureUnavailableError(
          feature,
          `no engine is configured for ${feature}; set ENGINES to include ${feature}=<engine> (docs/engines.md)`,
        );
      }
      const reasons = names(feature).map((n) => `${n}: ${engines.get(n)!.unavailable?.() ?? 'unavailable'}`);
      throw new FeatureUnavailableError(feature, `no engine of ${feature} can run here (${reasons.join('; ')})`);
    },
    chain,
    byName: (name) => engines.get(name),
    configured: (feature) => chain(feature).length > 0,
    acquire: (name, signal) => slot(name).acquire(signal),
    timeoutMs: (name) => limits.timeoutsMs?.[name] ?? ENGINE_DEFAULTS.timeoutMs,
    describe: (features) =>
      features.map((feature) => {
        const list = names(feature).map((name) => {
          const reason = engines.get(name)?.unavailable?.() ?? null;
          return { name, label: engineLabel(name), available: reason === null, reason };
        });
        return { feature, engines: list, served: list.some((e) => e.available) };
      }),
  };
}
