// Usage export: a year of one account's tasks and ledger rows as CSV, streamed in keyset pages vs the whole range at
// once (SQLite file).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '../server/db';
import { csvLine, usageCsv, usagePages } from '../server/tasks/usage-export';
import { USAGE_EXPORT } from '../src/lib/product-rules';
import type { UsageRow } from '../src/lib/api-contract';

const ROWS = Number(process.env.USAGE_EXPORT_BENCH_ROWS ?? 100_000);
const DAY_MS = 24 * 60 * 60 * 1000;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const dir = mkdtempSync(path.join(tmpdir(), 'usage-export-bench-'));
const database = await openDatabase(`sqlite:${path.join(dir, 'bench.db')}`);
await migrateToLatest(database);
const { db } = database;
const userId = 'bench-user';
const start = Date.UTC(2025, 0, 1);
await db
  .insertInto('users')
  .values({
    id: userId,
    email: 'bench@example.com',
    company: null,
    channel: null,
    country_code: null,
    referer: null,
    referer_url: null,
    created_at: start,
    updated_at: start,
  })
  .execute();

// A year of tasks, each with its hold in the ledger; the same number of rows in each table (USAGE_EXPORT_BENCH_ROWS
// each, 100,000 by default).
for (let i = 0; i < ROWS; i += 1000) {
  const at = (n: number) => start + Math.floor(((i + n) / ROWS) * 365 * DAY_MS);
  const ids = Array.from({ length: Math.min(1000, ROWS - i) }, (_, n) => n);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('tasks')
      .values(
        ids.map((n) => ({
          id: `task-${i + n}`,
          user_id: userId,
          feature: 'tts-common',
          status: 'succeeded',
          source: 'api',
          input: '{"text":"a task of the bench"}',
          engine: 'espeak',
          price_item: 'tts-common',
          credits_held: 2,
          credits_charged: 1,
          request_id: `req-${i + n}`,
          created_at: at(n),
          updated_at: at(n),
        })),
      )
      .execute();
    await trx
      .insertInto('credit_ledger')
      .values(
        ids.map((n) => ({
          user_id: userId,
          delta: -2,
          balance_after: 1000,
          reason: 'task-hold',
          reference: `task-${i + n}`,
          created_at: at(n),
        })),
      )
      .execute();
  });
}
const range = { from: '2025-01-01', to: '2025-12-31' };

/**
 * Runs `work`, which calls probe() where it holds the most (after each page, after the whole range is read): probe runs
 * a full GC and notes the live heap, so only what is still referenced counts. Answers the seconds (probes included,
 * alike for both ways) and the peak live heap above the start, in MB.
 */
async function measured(
  work: (probe: () => void) => Promise<number>,
): Promise<{ rows: number; seconds: number; peakMb: number }> {
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const probe = () => {
    gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  const began = performance.now();
  const rows = await work(probe);
  const seconds = (performance.now() - began) / 1000;
  return { rows, seconds, peakMb: (peak - base) / 1024 / 1024 };
}

const streamed = await measured(async (probe) => {
  let bytes = 0;
  let pages = 0;
  for await (const chunk of usageCsv(usagePages(db, userId, range))) {
    bytes += chunk.length;
    // Every 20th page: a GC per page would measure the GC.
    if (++pages % 20 === 0) probe();
  }
  return bytes > 0 ? ROWS * 2 : 0;
});

// The naive way: the same two queries with a page as big as the range, every row and the CSV text in memory before
// the first byte is sent.
const whole = await measured(async (probe) => {
  const rows: UsageRow[] = [];
  for await (const page of usagePages(db, userId, range, ROWS)) rows.push(...page);
  const text = `${USAGE_EXPORT.columns.join(',')}\r\n${rows.map(csvLine).join('')}`;
  probe();
  return text.length > 0 ? rows.length : 0;
});

await database.close();
rmSync(dir, { recursive: true, force: true });
const row = (way: string, m: typeof streamed) => ({
  way,
  rows: m.rows,
  s: Number(m.seconds.toFixed(2)),
  'rows/s': Math.round(m.rows / m.seconds),
  'peak live heap MB': Number(m.peakMb.toFixed(1)),
});
console.log(
  JSON.stringify([
    row(`streamed, keyset pages of ${USAGE_EXPORT.pageRows}`, streamed),
    row('whole range at once (baseline)', whole),
  ]),
);
