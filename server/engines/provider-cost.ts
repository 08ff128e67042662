// What a result cost at its provider, as an engine reports it on EngineResult.providerCosts and the task records it
// when it settles.
import { z } from 'zod';
import { COST_PROVIDERS, COST_UNITS, type CostProvider, type CostUnit } from '../../src/lib/product-rules';

export const providerCostSchema = z.object({
  provider: z.enum(COST_PROVIDERS),
  /** The figure in the provider's own unit (fal billable units, ElevenLabs billed characters, DreamAPI credits…). */
  amount: z.number().finite().nonnegative(),
  unit: z.enum(COST_UNITS),
  /**
   * In dollars where a price per unit is known (a published price, src/lib/product-rules/provider-costs.ts); else null.
   */
  usd: z.number().finite().nonnegative().nullable(),
  /**
   * True when the provider reported nothing and `amount` was computed here from our own measures and a published price.
   */
  estimated: z.boolean(),
});
export type ProviderCost = z.infer<typeof providerCostSchema>;

/** A figure the provider reported (a header or a field of its answer). */
export function reportedCost(
  provider: CostProvider,
  amount: number,
  unit: CostUnit,
  usdPerUnit: number | null,
): ProviderCost {
  return { provider, amount, unit, usd: usdPerUnit === null ? null : amount * usdPerUnit, estimated: false };
}

/** A figure computed here because the provider reported none. */
export function estimatedCost(
  provider: CostProvider,
  amount: number,
  unit: CostUnit,
  usdPerUnit: number | null,
): ProviderCost {
  return { ...reportedCost(provider, amount, unit, usdPerUnit), estimated: true };
}

/** A non-negative number out of a header or an answer's field; null when it is missing or not a number. */
export function costNumber(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : typeof value === 'number' ? value : NaN;
  return Number.isFinite(n) && n >= 0 ? n : null;
}
