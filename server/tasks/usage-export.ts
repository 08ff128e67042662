// The usage export: a user's tasks and credit movements of a UTC date range, read in keyset pages and streamed as CSV
// or JSON.
import type { Kysely } from 'kysely';
import type { Schema } from '../db';
import { USAGE_EXPORT } from '../../src/lib/product-rules';
import { usageLedgerRow, usageTaskRow, type UsageRange, type UsageRow } from '../../src/lib/api-contract';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The range as epoch ms, `to` day included. */
export function rangeBounds(range: UsageRange): { from: number; until: number } {
  return { from: Date.parse(`${range.from}T00:00:00Z`), until: Date.parse(`${range.to}T00:00:00Z`) + DAY_MS };
}

const iso = (ms: number) => new Date(Number(ms)).toISOString();

/** What both tables are read for: one user's rows created in [from, until), `pageRows` at a time. */
interface ExportScope {
  db: Kysely<Schema>;
  userId: string;
  from: number;
  until: number;
  pageRows: number;
}

/** The user's tasks submitted in the range, oldest first: pages of USAGE_EXPORT.pageRows by (created_at, id). */
async function* taskRows({ db, userId, from, until, pageRows }: ExportScope): AsyncGenerator<UsageRow[]> {
  let after: { at: number; id: string } | undefined;
  for (;;) {
    let q = db
      .selectFrom('tasks as t')
      .leftJoin('api_keys as k', 'k.id', 't.key_id')
      .select([
        't.id',
        't.created_at',
        't.feature',
        't.engine',
        't.status',
        't.source',
        't.credits_held',
        't.credits_charged',
        't.request_id',
        'k.name as key_name',
      ])
      .where('t.user_id', '=', userId)
      .where('t.created_at', '>=', from)
      .where('t.created_at', '<', until);
    if (after) {
      const { at, id } = after;
      q = q.where((eb) =>
        eb.or([eb('t.created_at', '>', at), eb.and([eb('t.created_at', '=', at), eb('t.id', '>', id)])]),
      );
    }
    const rows = await q.orderBy('t.created_at').orderBy('t.id').limit(pageRows).execute();
    if (rows.length === 0) return;
    yield rows.map((r) =>
      usageTaskRow({
        id: r.id,
        time: iso(r.created_at),
        feature: r.feature,
        engine: r.engine,
        status: r.status,
        source: r.source,
        creditsHeld: r.credits_held,
        creditsCharged: r.credits_charged,
        creditsRefunded: r.credits_charged === null ? null : r.credits_held - r.credits_charged,
        requestId: r.request_id,
        keyName: r.key_name,
      }),
    );
    const last = rows.at(-1)!;
    after = { at: Number(last.created_at), id: last.id };
    if (rows.length < pageRows) return;
  }
}

/**
 * The user's credit movements in the range, oldest first: pages by ledger id (the ledger is append-only, ids grow with
 * time).
 */
async function* ledgerRows({ db, userId, from, until, pageRows }: ExportScope): AsyncGenerator<UsageRow[]> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('credit_ledger')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '>', after)
      .where('created_at', '>=', from)
      .where('created_at', '<', until)
      .orderBy('id')
      .limit(pageRows)
      .execute();
    if (rows.length === 0) return;
    yield rows.map((r) =>
      usageLedgerRow({
        id: String(r.id),
        time: iso(r.created_at),
        delta: r.delta,
        balanceAfter: r.balance_after,
        reason: r.reason,
        reference: r.reference,
      }),
    );
    after = Number(rows.at(-1)!.id);
    if (rows.length < pageRows) return;
  }
}

/** Every row of the export, a page at a time: the tasks, then the credit movements. Only one page is in memory. */
export async function* usagePages(
  db: Kysely<Schema>,
  userId: string,
  range: UsageRange,
  pageRows: number = USAGE_EXPORT.pageRows,
): AsyncGenerator<UsageRow[]> {
  const scope: ExportScope = { db, userId, ...rangeBounds(range), pageRows };
  yield* taskRows(scope);
  yield* ledgerRows(scope);
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. Text that a spreadsheet
 * would run as a formula (= + - @, tab, CR first) gets a leading apostrophe; numbers are written as numbers.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = (USAGE_EXPORT.formulaStarts as readonly string[]).includes(value.charAt(0)) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof UsageRow;

export function csvLine(row: UsageRow): string {
  return `${USAGE_EXPORT.columns.map((column) => csvCell(row[camel(column)])).join(',')}\r\n`;
}

/** The export as CSV text, a page per chunk, after a header line. */
export async function* usageCsv(pages: AsyncIterable<UsageRow[]>): AsyncGenerator<string> {
  yield `${USAGE_EXPORT.columns.join(',')}\r\n`;
  for await (const page of pages) yield page.map(csvLine).join('');
}

/**
 * The export as the public API's envelope, {code: 0, …, data: {from, to, rows: [...]}}, with the rows array streamed.
 */
export async function* usageJson(range: UsageRange, pages: AsyncIterable<UsageRow[]>): AsyncGenerator<string> {
  yield `{"code":0,"message":"success","msg":"success","data":{"from":${JSON.stringify(range.from)},"to":${JSON.stringify(range.to)},"rows":[`;
  let first = true;
  for await (const page of pages) {
    yield (first ? '\n' : ',\n') + page.map((row) => JSON.stringify(row)).join(',\n');
    first = false;
  }
  yield '\n]}}\n';
}

/** A body stream that reads the next page only when the client has taken the last one (pull, so backpressure holds). */
export function textStream(
  chunks: AsyncGenerator<string>,
  onError: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        onError(error);
        // The status is sent already: a cut body (no closing bracket, no last line) is how the client learns of it.
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
