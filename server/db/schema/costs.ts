// Table types of provider costs (migration 014): per settled task what it charged, and what its result cost at each
// provider.
import type { Generated } from 'kysely';
import type { EpochMs, Flag } from './common.ts';

/** One row per succeeded task, kept when the task itself is deleted from the history. */
export interface TaskCostsTable {
  task_id: string;
  engine: string;
  feature: string;
  credits_charged: number;
  settled_at: EpochMs;
}

/** One billing provider call of a settled task (EngineResult.providerCosts). */
export interface TaskProviderCostsTable {
  id: Generated<number>;
  task_id: string;
  /** COST_PROVIDERS. */
  provider: string;
  amount: number;
  /** COST_UNITS. */
  unit: string;
  usd: number | null;
  estimated: Flag;
}
