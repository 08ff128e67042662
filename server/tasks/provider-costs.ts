// Records, in the transaction that settles a task, what it charged and what its result cost at the provider(s), and
// counts both.
import type { Transaction } from 'kysely';
import type { Schema, TaskRow } from '../db';
import { providerCostSchema, type ProviderCost } from '../engines';
import type { Logger } from '../log';
import { engineCreditsCharged, providerCostUnits, providerCostUsd } from '../metrics';

/**
 * A succeeded task gets one task_costs row (kept when the user deletes the task) and one row per billing provider call.
 * A cost an engine got wrong (not a finite, non-negative figure) is left out and logged: it must not stop the settle.
 */
export async function recordTaskCosts(
  trx: Transaction<Schema>,
  task: TaskRow,
  costs: readonly ProviderCost[] = [],
  log?: Logger,
): Promise<void> {
  if (task.status !== 'succeeded') return;
  const charged = task.credits_charged ?? 0;
  await trx
    .insertInto('task_costs')
    .values({
      task_id: task.id,
      engine: task.engine,
      feature: task.feature,
      credits_charged: charged,
      settled_at: task.finished_at ?? Date.now(),
    })
    .execute();
  const valid = costs.flatMap((cost) => {
    const parsed = providerCostSchema.safeParse(cost);
    if (!parsed.success)
      log?.warn('provider cost ignored', { taskId: task.id, engine: task.engine, cost: JSON.stringify(cost) });
    return parsed.success ? [parsed.data] : [];
  });
  if (valid.length > 0) {
    await trx
      .insertInto('task_provider_costs')
      .values(
        valid.map((c) => ({
          task_id: task.id,
          provider: c.provider,
          amount: c.amount,
          unit: c.unit,
          usd: c.usd,
          estimated: c.estimated ? 1 : 0,
        })),
      )
      .execute();
  }
  const labels = { engine: task.engine, feature: task.feature };
  if (charged > 0) engineCreditsCharged.inc(labels, charged);
  for (const c of valid) {
    if (c.usd !== null && c.usd > 0) providerCostUsd.inc({ ...labels, provider: c.provider }, c.usd);
    if (c.amount > 0) providerCostUnits.inc({ ...labels, provider: c.provider, unit: c.unit }, c.amount);
  }
}
