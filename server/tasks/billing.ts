// A task's engine and price here: the engine it is stored with, and its chain and NO_MODEL_PRICE handed to the one
// price of a run (src/lib/product-rules/pricing/run-price.ts) for the hold at submit and the charge after the run.
import { chargePrice, holdPrice, type Feature, type NoModelPrice, type PriceInput } from '../../src/lib/product-rules';
import { FeatureUnavailableError, type Engine, type EngineRegistry } from '../engines';
import type { Logger } from '../log';

export interface TaskBillingOptions {
  engines: Pick<EngineRegistry, 'forFeature' | 'chain'>;
  noModelPrice: NoModelPrice;
  log: Logger;
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
      const { itemId, credits } = holdPrice(feature, measures, o.engines.chain(feature), o.noModelPrice);
      return { itemId, credits };
    },

    /**
     * Settled after the run: the price on the engine that made the result (a free no-model fallback refunds the hold).
     */
    settle(feature: Feature, measures: PriceInput, engine: string): number {
      return chargePrice(feature, measures, engine, o.noModelPrice);
    },
  };
}

export type TaskBilling = ReturnType<typeof taskBilling>;
