// The task gauges read from the database at each scrape: queued and running tasks by feature, the oldest wait, credits
// held.
import type { Kysely } from 'kysely';
import type { Schema } from '../db';
import { creditsHeldNow, oldestQueuedAge, tasksActive } from './registry';

/** One grouped query on the (status, created_at) index; features with nothing active drop out of the gauge. */
export async function refreshTaskGauges(db: Kysely<Schema>, now = Date.now()): Promise<void> {
  const rows = await db
    .selectFrom('tasks')
    .select((eb) => [
      'feature',
      'status',
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>('credits_held').as('held'),
      eb.fn.min<number>('created_at').as('oldest'),
    ])
    .where('status', 'in', ['queued', 'running'])
    .groupBy(['feature', 'status'])
    .execute();
  tasksActive.reset();
  let held = 0;
  let oldest = now;
  for (const row of rows) {
    tasksActive.set({ feature: row.feature, status: row.status }, Number(row.count));
    held += Number(row.held ?? 0);
    if (row.status === 'queued') oldest = Math.min(oldest, Number(row.oldest));
  }
  creditsHeldNow.set(held);
  oldestQueuedAge.set(Math.max(0, now - oldest) / 1000);
}
