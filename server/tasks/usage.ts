// Runs and credits per day and per feature over the last days (the dashboard chart): runs from the tasks, credits from
// the ledger.
import type { Kysely } from 'kysely';
import type { Schema } from '../db';
import { USAGE } from '../../src/lib/product-rules';
import type { UsageReport } from '../../src/lib/api/types';
import { LEDGER_REASONS } from './settle';

interface FeatureUsage {
  credits: number[];
  runs: number[];
}

/**
 * A run is a task submitted on that day, free ones included (they hold nothing, so only the tasks table knows them). A
 * task's cost is what its ledger rows add up to (hold, settle, refund), counted on the day of its hold. Days are the
 * caller's (`tzOffsetMinutes` as Date#getTimezoneOffset gives it). Tasks deleted from the history keep their ledger
 * rows and are reported as USAGE.deletedFeature, for credits only: their runs left with them.
 */
export async function usageReport(
  db: Kysely<Schema>,
  userId: string,
  tzOffsetMinutes: number,
  now = Date.now(),
): Promise<UsageReport> {
  const offsetMs = tzOffsetMinutes * 60_000;
  const dayOf = (t: number) => Math.floor((t - offsetMs) / USAGE.dayMs);
  const first = dayOf(now) - USAGE.days + 1;
  const since = first * USAGE.dayMs + offsetMs;
  const [ledger, runs] = await Promise.all([
    db
      .selectFrom('credit_ledger as l')
      .leftJoin('tasks as t', 't.id', 'l.reference')
      .select(['l.delta', 'l.reason', 'l.reference', 'l.created_at', 't.feature'])
      .where('l.user_id', '=', userId)
      .where('l.reason', 'in', [LEDGER_REASONS.hold, LEDGER_REASONS.settle, LEDGER_REASONS.refund])
      .where('l.created_at', '>=', since)
      .execute(),
    db
      .selectFrom('tasks')
      .select(['feature', 'created_at'])
      .where('user_id', '=', userId)
      .where('created_at', '>=', since)
      .execute(),
  ]);

  const byFeature = new Map<string, FeatureUsage>();
  const usageOf = (feature: string) => {
    let usage = byFeature.get(feature);
    if (!usage)
      byFeature.set(
        feature,
        (usage = { credits: new Array<number>(USAGE.days).fill(0), runs: new Array<number>(USAGE.days).fill(0) }),
      );
    return usage;
  };
  for (const run of runs) {
    const day = dayOf(Number(run.created_at)) - first;
    if (day >= 0 && day < USAGE.days) usageOf(run.feature).runs[day]! += 1;
  }
  const spent = new Map<string, { day: number | null; feature: string; credits: number }>();
  for (const row of ledger) {
    const id = row.reference ?? '';
    const task = spent.get(id) ?? { day: null, feature: row.feature ?? USAGE.deletedFeature, credits: 0 };
    task.credits -= row.delta;
    if (row.reason === LEDGER_REASONS.hold) task.day = dayOf(Number(row.created_at));
    spent.set(id, task);
  }
  for (const task of spent.values()) {
    // Held before the span: its charge belongs to a day the chart does not show.
    if (task.day === null || task.day < first || task.credits <= 0) continue;
    usageOf(task.feature).credits[task.day - first]! += task.credits;
  }
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const features = [...byFeature]
    .map(([feature, u]) => ({
      feature,
      credits: u.credits,
      runs: u.runs,
      total: sum(u.credits),
      totalRuns: sum(u.runs),
    }))
    .sort((a, b) => b.total - a.total || b.totalRuns - a.totalRuns || a.feature.localeCompare(b.feature));
  const days = Array.from({ length: USAGE.days }, (_, i) =>
    new Date((first + i) * USAGE.dayMs).toISOString().slice(0, 10),
  );
  return { days, features, total: sum(features.map((f) => f.total)), totalRuns: sum(features.map((f) => f.totalRuns)) };
}
