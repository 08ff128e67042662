// `npm run admin -- costs`: per engine, tasks settled, credits charged, what the results cost at the providers, and the
// margin.
import type { Kysely } from 'kysely';
import type { Schema } from '../db';
import {
  COST_MESSAGES,
  COST_UNITS,
  DREAMAPI_USD_PER_CREDIT,
  USD_PER_CREDIT,
  type CostUnit,
} from '../../src/lib/product-rules';

/** Dollars per unit given on the command line (--rate dreamapi-credits=0.01): the operator's own price of a unit. */
export type UnitRates = Partial<Record<CostUnit, number>>;

/** One engine's line of the report; `providerUsd` leaves out the parts with no price (`unpriced`). */
export interface EngineCosts {
  engine: string;
  tasks: number;
  credits: number;
  /** What the credits bring in at USD_PER_CREDIT. */
  creditsUsd: number;
  providerUsd: number;
  /** Provider calls with no dollar figure (no published price and no --rate for their unit). */
  unpriced: number;
  /** Provider calls whose figure was estimated here from a published price (the provider reported none). */
  estimated: number;
  /** Totals in the providers' own units. */
  units: Array<{ unit: string; amount: number }>;
}

/** "2026-01-31" (or a full ISO time) → epoch ms; a UsageError-worthy message otherwise. */
export function parseSince(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at)) throw new Error(COST_MESSAGES.sinceFormat(value));
  return at;
}

/**
 * `unit=usd` pairs; DREAMAPI_USD_PER_CREDIT stands for DreamAPI credits when it is known and no --rate overrides it.
 */
export function parseRates(values: readonly string[] = []): UnitRates {
  const rates: UnitRates = DREAMAPI_USD_PER_CREDIT === null ? {} : { 'dreamapi-credits': DREAMAPI_USD_PER_CREDIT };
  for (const value of values) {
    const [unit, usd] = value.split('=');
    const n = Number(usd);
    if (
      !(COST_UNITS as readonly string[]).includes(unit ?? '') ||
      usd === undefined ||
      usd.trim() === '' ||
      !Number.isFinite(n) ||
      n < 0
    )
      throw new Error(COST_MESSAGES.rateFormat(value));
    rates[unit as CostUnit] = n;
  }
  return rates;
}

export async function costsByEngine(
  db: Kysely<Schema>,
  o: { since?: number; rates?: UnitRates } = {},
): Promise<EngineCosts[]> {
  const since = o.since ?? 0;
  const tasks = await db
    .selectFrom('task_costs')
    .select((eb) => [
      'engine',
      eb.fn.countAll<number>().as('tasks'),
      eb.fn.sum<number>('credits_charged').as('credits'),
    ])
    .where('settled_at', '>=', since)
    .groupBy('engine')
    .execute();
  const parts = await db
    .selectFrom('task_provider_costs as p')
    .innerJoin('task_costs as t', 't.task_id', 'p.task_id')
    .select((eb) => [
      't.engine',
      'p.unit',
      eb.fn.sum<number>('p.amount').as('amount'),
      eb.fn.sum<number | null>('p.usd').as('usd'),
      eb.fn.count<number>('p.usd').as('priced'),
      eb.fn.countAll<number>().as('calls'),
      eb.fn.sum<number>('p.estimated').as('estimated'),
    ])
    .where('t.settled_at', '>=', since)
    .groupBy(['t.engine', 'p.unit'])
    .execute();
  return tasks
    .map((row) => {
      const mine = parts.filter((p) => p.engine === row.engine);
      let providerUsd = 0;
      let unpriced = 0;
      for (const p of mine) {
        const rate = o.rates?.[p.unit as CostUnit];
        // An operator's rate for the unit prices every call in it; else the recorded dollars of the calls that have
        // them.
        if (rate !== undefined) providerUsd += Number(p.amount) * rate;
        else {
          providerUsd += Number(p.usd ?? 0);
          unpriced += Number(p.calls) - Number(p.priced);
        }
      }
      const credits = Number(row.credits ?? 0);
      return {
        engine: row.engine,
        tasks: Number(row.tasks),
        credits,
        creditsUsd: credits * USD_PER_CREDIT,
        providerUsd,
        unpriced,
        estimated: mine.reduce((n, p) => n + Number(p.estimated ?? 0), 0),
        units: mine
          .map((p) => ({ unit: p.unit, amount: Number(p.amount) }))
          .sort((a, b) => a.unit.localeCompare(b.unit)),
      };
    })
    .sort((a, b) => b.credits - a.credits || a.engine.localeCompare(b.engine));
}

const usd = (n: number) => `${n < 0 ? '-' : ''}$${Math.abs(n).toFixed(4)}`;
const amount = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

const margin = (r: EngineCosts) => r.creditsUsd - r.providerUsd;
const share = (r: EngineCosts) => (r.creditsUsd > 0 ? `${((margin(r) / r.creditsUsd) * 100).toFixed(1)}%` : '-');
const bound = (r: EngineCosts) => (r.unpriced > 0 ? '≤ ' : '');

/** The printed columns, each its header and how a row (or the total) fills it. */
const COST_COLUMNS: ReadonlyArray<readonly [header: string, cell: (r: EngineCosts) => string | number]> = [
  ['engine', (r) => r.engine],
  ['tasks', (r) => r.tasks],
  ['credits charged', (r) => r.credits],
  ['credits in USD', (r) => usd(r.creditsUsd)],
  ['provider cost USD', (r) => usd(r.providerUsd)],
  // Dollars computed from a list price are already in the provider cost column; the other units are the providers'
  // own.
  [
    'provider units',
    (r) =>
      r.units
        .filter((u) => u.unit !== 'usd')
        .map((u) => `${amount(u.amount)} ${u.unit}`)
        .join(', ') || '-',
  ],
  ['margin USD', (r) => `${bound(r)}${usd(margin(r))}`],
  ['margin', (r) => `${bound(r)}${share(r)}`],
  [
    'notes',
    (r) =>
      [r.estimated > 0 ? `${r.estimated} estimated` : '', r.unpriced > 0 ? `${r.unpriced} without a price` : '']
        .filter(Boolean)
        .join(', ') || '-',
  ],
];

/** Tab-separated like the other admin commands; a margin over unpriced calls is an upper bound (≤). */
export function costLines(rows: readonly EngineCosts[]): string[] {
  if (rows.length === 0) return [COST_MESSAGES.none];
  const total: EngineCosts = {
    engine: 'total',
    tasks: 0,
    credits: 0,
    creditsUsd: 0,
    providerUsd: 0,
    unpriced: 0,
    estimated: 0,
    units: [],
  };
  for (const r of rows) {
    total.tasks += r.tasks;
    total.credits += r.credits;
    total.creditsUsd += r.creditsUsd;
    total.providerUsd += r.providerUsd;
    total.unpriced += r.unpriced;
    total.estimated += r.estimated;
  }
  const line = (r: EngineCosts) => COST_COLUMNS.map(([, cell]) => cell(r)).join('\t');
  return [
    COST_COLUMNS.map(([header]) => header).join('\t'),
    ...rows.map(line),
    ...(rows.length > 1 ? [line(total)] : []),
    `credits valued at ${usd(USD_PER_CREDIT)} each (the largest pack's price per credit); granted credits bring in nothing`,
  ];
}
