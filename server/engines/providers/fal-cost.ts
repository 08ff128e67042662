// What a fal job cost: the billable units fal reported on its result, priced at fal's list price for what was made.
import { COST_REPORTS, falListUsd } from '../../../src/lib/product-rules';
import { costNumber, type ProviderCost } from '../provider-cost';

/** fal's billable units on a result's response; null when fal did not send them. */
export function falBillableUnits(headers: Headers): number | null {
  return costNumber(headers.get(COST_REPORTS.falUnitsHeader));
}

/**
 * The cost of one job: the units fal reported (estimated: false) with the list price of the outputs in dollars, or,
 * when fal sent no units, that list price alone (estimated: true); a model with no recorded price has no dollars.
 */
export function falCost(
  model: string,
  units: number | null,
  made: { resolution?: unknown; outputs: number },
): ProviderCost {
  const usd = falListUsd(model, {
    resolution: typeof made.resolution === 'string' ? made.resolution : undefined,
    outputs: made.outputs,
  });
  if (units !== null) return { provider: 'fal', amount: units, unit: 'fal-billing-units', usd, estimated: false };
  return { provider: 'fal', amount: usd ?? 0, unit: 'usd', usd, estimated: true };
}
