// The public features answer (GET /api-playground/task/v1/features): per feature, whether this server serves it, by
// which engine, and what a run costs; beside it, whether payments work here and which sign-in methods are offered, so
// no page can say otherwise.
import { chainUsesModel, engineLabel, featureNote, FEATURES, type NoModelPrice } from '../../src/lib/product-rules';
import type { FeatureState, OfferAnswer } from '../../src/lib/api/types';
import type { Config } from '../config';
import { engineLanguages, engineOptions, type EngineRegistry } from '../engines';
import { isConfigured } from '../oauth/providers';

/** Cacheable for a minute: it changes only when the server restarts with other settings (or ffmpeg goes missing). */
export const FEATURES_CACHE_CONTROL = 'public, max-age=60';

/**
 * Every feature with: available (an engine can run it here), the first engine and its label, whether a run may use an
 * AI model (any engine of its chain does), NO_MODEL_PRICE, a price note for people, the advanced settings the serving
 * engine honours and, when it speaks only some, the languages of its voices (server/engines/options.ts). The
 * playground's cost preview feeds usesModel and noModelPrice to previewPrice(), which prices runs as the hold and the
 * charge do (src/lib/product-rules/pricing/run-price.ts).
 */
export function featureStates(engines: Pick<EngineRegistry, 'chain'>, noModelPrice: NoModelPrice): FeatureState[] {
  return FEATURES.map((feature) => {
    const chain = engines.chain(feature);
    const engine = chain[0]?.name ?? null;
    const usesModel = chainUsesModel(chain);
    const languages = engineLanguages(chain[0], feature);
    return {
      feature,
      available: engine !== null,
      engine,
      engineLabel: engine === null ? null : engineLabel(engine),
      usesModel,
      noModelPrice,
      priceNote: featureNote(feature, engine, { usesModel, noModelPrice }),
      options: [...engineOptions(chain[0], feature)],
      ...(languages ? { languages: [...languages] } : {}),
    };
  });
}

/**
 * The whole answer: the features, payments (enabled when Stripe's keys are set, as GET /payment/packs says) and the
 * sign-in methods.
 */
export function offerAnswer(engines: Pick<EngineRegistry, 'chain'>, config: Config): OfferAnswer {
  return {
    list: featureStates(engines, config.tasks.noModelPrice),
    payments: { enabled: config.stripe !== null },
    signIn: { email: true, google: isConfigured(config, 'google'), github: isConfigured(config, 'github') },
  };
}
