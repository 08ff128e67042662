// What one run costs, computed here and nowhere else: the cost preview, the hold at submit and the charge at settlement
// (the SPEC.md §9 price of its measures, or 0 for a run no AI model makes while NO_MODEL_PRICE is free).
import { featurePrice, type Feature } from './features';
import type { PriceInput } from './price-measures';
import type { PriceItemId } from './prices';
import { quote } from './quote';

/** Engines that make their output without an AI model: the offline speech synthesizer and the ffmpeg preview scenes. */
export const NO_MODEL_ENGINES: readonly string[] = ['espeak', 'preview'];

export function engineUsesModel(name: string): boolean {
  return !NO_MODEL_ENGINES.includes(name);
}

/**
 * Whether a run may use an AI model before it is known which engine makes it: any engine of its fallback chain does.
 * The hold and the features answer (which the preview reads) both ask this, so the preview is what is held.
 */
export function chainUsesModel(chain: readonly { name: string }[]): boolean {
  return chain.some((engine) => engineUsesModel(engine.name));
}

/** NO_MODEL_PRICE: a run on an engine with no AI model is free (the default) or charged the full SPEC.md §9 price. */
export const NO_MODEL_PRICES = ['free', 'full'] as const;
export type NoModelPrice = (typeof NO_MODEL_PRICES)[number];
export const NO_MODEL_PRICE_DEFAULT: NoModelPrice = 'free';

/** What a run's price depends on besides its measures: whether an AI model makes it, and NO_MODEL_PRICE. */
export interface RunBilling {
  usesModel: boolean;
  noModelPrice: NoModelPrice;
}

export interface RunPrice {
  /** The §9 price item the run is charged under (stored with the task). */
  itemId: PriceItemId;
  credits: number;
  /** True when the run costs nothing only because no AI model makes it (NO_MODEL_PRICE=free). */
  free: boolean;
}

/**
 * The §9 list price of a run's measures, as if an AI model made it: the sign-up trial, a provider's own estimate
 * (it bills by the same table) and the reference's Try it, which cannot know the engine.
 */
export function listPrice(feature: Feature, measures: PriceInput): { itemId: PriceItemId; credits: number } {
  const { itemId, params } = featurePrice(feature, measures);
  return { itemId, credits: quote(itemId, params) };
}

/** Whether a run costs nothing because no AI model makes it and NO_MODEL_PRICE is free (the notes say so). */
export function runsFree(billing: RunBilling): boolean {
  return !billing.usesModel && billing.noModelPrice === 'free';
}

/** Credits one run costs: its list price, or 0 when no AI model makes it and NO_MODEL_PRICE is free. */
export function runPrice(feature: Feature, measures: PriceInput, billing: RunBilling): RunPrice {
  const free = runsFree(billing);
  if (free) return { itemId: featurePrice(feature, measures).itemId, credits: 0, free };
  return { ...listPrice(feature, measures), free };
}

/**
 * Held at submit: the price on the dearest engine of the chain (an AI-model fallback is covered), which is what the
 * preview shows for the same measures.
 */
export function holdPrice(
  feature: Feature,
  measures: PriceInput,
  chain: readonly { name: string }[],
  noModelPrice: NoModelPrice,
): RunPrice {
  return runPrice(feature, measures, { usesModel: chainUsesModel(chain), noModelPrice });
}

/**
 * Charged at settlement: the price on the engine that made the result, on the measures known after the run (the real
 * output length of a per-second feature). A free no-model fallback of a held run is charged 0, so its hold comes back.
 */
export function chargePrice(
  feature: Feature,
  measures: PriceInput,
  engine: string,
  noModelPrice: NoModelPrice,
): number {
  return runPrice(feature, measures, { usesModel: engineUsesModel(engine), noModelPrice }).credits;
}

/**
 * What the cost preview shows beside a submit button: null while a length the price needs is unknown (no file chosen
 * yet) and the run is charged, else the credits the submit would hold.
 */
export function previewPrice(feature: Feature, measures: PriceInput, billing: RunBilling): number | null {
  if (runsFree(billing)) return 0;
  const { params } = featurePrice(feature, measures);
  if (measures.seconds === undefined && ('seconds' in params || 'minutes' in params)) return null;
  return listPrice(feature, measures).credits;
}
