// Credits used per day and per feature over the last days (the dashboard chart), read from the ledger, which keeps every charge.
import type { Kysely } from 'kysely';
import type { Schema } from '../db';
import { USAGE } from '../../src/lib/spec';
import type { UsageReport } from '../../src/lib/api/types';
import { LEDGER_REASONS } from './service';

/**
 * A task's cost is what its ledger rows add up to (hold, settle, refund), counted on the day it was submitted (its hold),
 * in the caller's time zone (`tzOffsetMinutes` as Date#getTimezoneOffset gives it). Tasks deleted from the history keep
 * their rows and are reported as USAGE.deletedFeature.
 */
export async function usageReport(db: Kysely<Schema>, userId: string, tzOffsetMinutes: number, now = Date.now()): Promise<UsageReport> {
  const offsetMs = tzOffsetMinutes * 60_000;
  const dayOf = (t: number) => Math.floor((t - offsetMs) / USAGE.dayMs);
  const today = dayOf(now);
  const first = today - USAGE.days + 1;
  const since = first * USAGE.dayMs + offsetMs;
  const rows = await db
    .selectFrom('credit_ledger as l')
    .leftJoin('tasks as t', 't.id', 'l.reference')
    .select(['l.delta', 'l.reason', 'l.reference', 'l.created_at', 't.feature'])
    .where('l.user_id', '=', userId)
    .where('l.reason', 'in', [LEDGER_REASONS.hold, LEDGER_REASONS.settle, LEDGER_REASONS.refund])
    .where('l.created_at', '>=', since)
    .execute();

  const tasks = new Map<string, { day: number | null; feature: string; spent: number }>();
  for (const row of rows) {
    const id = row.reference ?? '';
    const task = tasks.get(id) ?? { day: null, feature: row.feature ?? USAGE.deletedFeature, spent: 0 };
    task.spent -= row.delta;
    if (row.reason === LEDGER_REASONS.hold) task.day = dayOf(Number(row.created_at));
    tasks.set(id, task);
  }
  const byFeature = new Map<string, number[]>();
  for (const task of tasks.values()) {
    // Held before the span: its charge belongs to a day the chart does not show.
    if (task.day === null || task.day < first || task.spent <= 0) continue;
    const series = byFeature.get(task.feature) ?? new Array<number>(USAGE.days).fill(0);
    series[task.day - first]! += task.spent;
    byFeature.set(task.feature, series);
  }
  const features = [...byFeature].map(([feature, credits]) => ({ feature, credits, total: credits.reduce((a, b) => a + b, 0) })).sort((a, b) => b.total - a.total || a.feature.localeCompare(b.feature));
  const days = Array.from({ length: USAGE.days }, (_, i) => new Date((first + i) * USAGE.dayMs).toISOString().slice(0, 10));
  return { days, features, total: features.reduce((a, f) => a + f.total, 0) };
}
