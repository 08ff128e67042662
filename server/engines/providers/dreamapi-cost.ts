// What a DreamAPI job cost: the credits its task answer reports, else DreamAPI's published price of what was made
// (SPEC.md §9, the same table as ours).
import {
  COST_REPORTS,
  DREAMAPI_USD_PER_CREDIT,
  listPrice,
  priceInputOf,
  type Feature,
  type PriceInput,
} from '../../../src/lib/product-rules';
import { costNumber, estimatedCost, reportedCost, type ProviderCost } from '../provider-cost';
import type { EngineOutput } from '../types';

/**
 * Reported: data.task.creditsCharged (or credits) of the finished task, as a DreamAPI-compatible upstream answers it.
 * Estimated: its price table applied to the input and the real length of the outputs, as this server would charge it.
 */
export function dreamApiCost(
  feature: Feature,
  input: unknown,
  result: Record<string, unknown>,
  outputs: readonly EngineOutput[],
): ProviderCost {
  const task = (result.task ?? {}) as Record<string, unknown>;
  for (const field of COST_REPORTS.dreamApiTaskFields) {
    const credits = costNumber(task[field]);
    if (credits !== null) return reportedCost('dreamapi', credits, 'dreamapi-credits', DREAMAPI_USD_PER_CREDIT);
  }
  const seconds = outputs.reduce((sum, o) => sum + (o.durationS ?? 0), 0);
  const measures: PriceInput = {
    ...priceInputOf(feature, (input ?? {}) as Record<string, unknown>),
    ...(seconds > 0 ? { seconds } : {}),
  };
  const { credits } = listPrice(feature, measures);
  return estimatedCost('dreamapi', credits, 'dreamapi-credits', DREAMAPI_USD_PER_CREDIT);
}
