// `npm run admin -- costs`: per engine tasks, credits, provider cost in dollars and native units, margin, by date and
// with an operator's rate.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import { USD_PER_CREDIT } from '../../src/lib/product-rules';
import { runAdmin, UsageError } from './commands';

let database: AppDatabase;
let out: string[];
const run = (...argv: string[]) => runAdmin(database.db, argv, (line) => out.push(line));
const DAY = 86_400_000;
const JAN_10 = Date.parse('2026-01-10T12:00:00Z');

/** A settled task and its provider calls, as recordTaskCosts writes them. */
async function settled(
  id: string,
  engine: string,
  credits: number,
  at: number,
  parts: Array<{ provider: string; amount: number; unit: string; usd: number | null; estimated?: boolean }> = [],
) {
  await database.db
    .insertInto('task_costs')
    .values({ task_id: id, engine, feature: 'text-to-video', credits_charged: credits, settled_at: at })
    .execute();
  for (const p of parts)
    await database.db
      .insertInto('task_provider_costs')
      .values({
        task_id: id,
        provider: p.provider,
        amount: p.amount,
        unit: p.unit,
        usd: p.usd,
        estimated: p.estimated ? 1 : 0,
      })
      .execute();
}

const table = () => out.map((line) => line.split('\t'));

beforeEach(async () => {
  database = await openDatabase('sqlite::memory:');
  await migrateToLatest(database);
  out = [];
});
afterEach(() => database.close());

describe('npm run admin -- costs', () => {
  it('shows per engine the tasks, credits, provider cost in dollars and native units, and the margin, busiest first', async () => {
    await settled('t1', 'fal', 60, JAN_10, [{ provider: 'fal', amount: 2, unit: 'fal-billing-units', usd: 0.4 }]);
    await settled('t2', 'fal', 15, JAN_10, [{ provider: 'fal', amount: 0.2, unit: 'usd', usd: 0.2, estimated: true }]);
    await settled('t3', 'elevenlabs', 4, JAN_10, [
      { provider: 'elevenlabs', amount: 500, unit: 'characters', usd: 0.05 },
    ]);
    await settled('t4', 'espeak', 0, JAN_10);
    await run('costs');
    const credits = 75 * USD_PER_CREDIT;
    expect(table()[0]).toEqual([
      'engine',
      'tasks',
      'credits charged',
      'credits in USD',
      'provider cost USD',
      'provider units',
      'margin USD',
      'margin',
      'notes',
    ]);
    expect(table()[1]).toEqual([
      'fal',
      '2',
      '75',
      `$${credits.toFixed(4)}`,
      '$0.6000',
      '2 fal-billing-units',
      `${credits < 0.6 ? '-' : ''}$${Math.abs(credits - 0.6).toFixed(4)}`,
      `${(((credits - 0.6) / credits) * 100).toFixed(1)}%`,
      '1 estimated',
    ]);
    expect(table()[2]!.slice(0, 6)).toEqual([
      'elevenlabs',
      '1',
      '4',
      `$${(4 * USD_PER_CREDIT).toFixed(4)}`,
      '$0.0500',
      '500 characters',
    ]);
    expect(table()[3]!.slice(0, 6)).toEqual(['espeak', '1', '0', '$0.0000', '$0.0000', '-']);
    expect(table()[3]![7]).toBe('-');
    expect(table()[4]!.slice(0, 5)).toEqual(['total', '4', '79', `$${(79 * USD_PER_CREDIT).toFixed(4)}`, '$0.6500']);
    expect(out.at(-1)).toMatch(/^credits valued at \$0\.\d{4} each/);
  });

  it('marks the margin as an upper bound while a unit has no price, until --rate gives one', async () => {
    await settled('t1', 'dreamapi', 30, JAN_10, [
      { provider: 'dreamapi', amount: 30, unit: 'dreamapi-credits', usd: null },
    ]);
    await run('costs');
    expect(table()[1]!.slice(4)).toEqual([
      '$0.0000',
      '30 dreamapi-credits',
      `≤ $${(30 * USD_PER_CREDIT).toFixed(4)}`,
      '≤ 100.0%',
      '1 without a price',
    ]);
    out = [];
    await run('costs', '--rate', 'dreamapi-credits=0.005');
    expect(table()[1]!.slice(4, 7)).toEqual([
      '$0.1500',
      '30 dreamapi-credits',
      `$${(30 * USD_PER_CREDIT - 0.15).toFixed(4)}`,
    ]);
  });

  it('counts only tasks settled on or after --since', async () => {
    await settled('old', 'fal', 60, JAN_10 - 5 * DAY, [
      { provider: 'fal', amount: 1, unit: 'fal-billing-units', usd: 0.2 },
    ]);
    await settled('new', 'fal', 15, JAN_10, [{ provider: 'fal', amount: 1, unit: 'fal-billing-units', usd: 0.2 }]);
    await run('costs', '--since', '2026-01-08');
    expect(table()[1]!.slice(0, 5)).toEqual(['fal', '1', '15', `$${(15 * USD_PER_CREDIT).toFixed(4)}`, '$0.2000']);
    out = [];
    await run('costs', '--since', '2026-02-01');
    expect(out).toEqual(['no settled tasks in this period']);
  });

  it('explains a bad date or rate', async () => {
    await expect(run('costs', '--since', 'last week')).rejects.toThrow(UsageError);
    await expect(run('costs', '--since', 'last week')).rejects.toThrow('--since must be a date such as 2026-01-31');
    await expect(run('costs', '--rate', 'gold=1')).rejects.toThrow('--rate must be <unit>=<usd per unit>');
    await expect(run('costs', '--rate', 'characters=-1')).rejects.toThrow(UsageError);
  });
});
