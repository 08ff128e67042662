// What a task is charged: the engine it is stored with, the hold at submit and the settle after the run, with
// NO_MODEL_PRICE applied.
import {
  engineUsesModel,
  runCredits,
  type Feature,
  type NoModelPrice,
  type PriceInput,
} from '../../src/lib/product-rules';
import { FeatureUnavailableError, type Engine, type EngineRegistry } from '../engines';
import type { Logger } from '../log';

export interface TaskBillingOptions {
  engines: Pick<EngineRegistry, 'forFeature' | 'chain'>;
  noModelPrice: NoModelPrice;
  log: Logger;
}

/** Whether any engine a feature may run on here uses an AI model: the hold covers the dearest engine of the chain. */
export function chainUsesModel(chain: readonly Pick<Engine, 'name'>[]): boolean {
  return chain.some((engine) => engineUsesModel(engine.name));
}

export function taskBilling(o: TaskBillingOptions) {
  const warned = new Set<Feature>();

  return {
    /**
     * The first engine of a feature, stored with the task. A feature no engine serves here is refused with 503 and a
     * message for developers; the operator's hint (what to configure) goes to the log, once per feature at warn level.
     */
    engineFor(feature: Feature): Engine {
      try {
        return o.engines.forFeature(feature);
      } catch (error) {
        if (error instanceof FeatureUnavailableError) {
          const level = warned.has(feature) ? 'debug' : 'warn';
          warned.add(feature);
          o.log[level]('submit refused: feature not served here', { feature, hint: error.hint });
        }
        throw error;
      }
    },

    /** Held at submit: the price on the dearest engine of the chain, so a fallback with an AI model is covered. */
    hold(feature: Feature, measures: PriceInput): { itemId: string; credits: number } {
      const { itemId, credits } = runCredits(feature, measures, {
        usesModel: chainUsesModel(o.engines.chain(feature)),
        noModelPrice: o.noModelPrice,
      });
      return { itemId, credits };
    },

    /**
     * Settled after the run: the price on the engine that made the result (a free no-model fallback refunds the hold).
     */
    settle(feature: Feature, measures: PriceInput, engine: string): number {
      return runCredits(feature, measures, { usesModel: engineUsesModel(engine), noModelPrice: o.noModelPrice })
        .credits;
    },
  };
}

export type TaskBilling = ReturnType<typeof taskBilling>;
