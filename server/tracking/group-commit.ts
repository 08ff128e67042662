// Group commit of collector batches: the batches that arrive together are stored by one statement (one commit), each
// still answered with its own stored and duplicate counts; a group that fails is retried batch by batch.
import { CompiledQuery } from 'kysely';
import type { AppDatabase, TrackingEventsTable } from '../db';

export type EventRow = TrackingEventsTable;
export interface BatchCounts {
  stored: number;
  duplicates: number;
}

const COLUMNS = [
  'entry_id',
  'app_key',
  'produce_id',
  'device_id',
  'cold_start_id',
  'seq_id',
  'uid',
  'time',
  'oid',
  'action',
  'foid',
  'ffid',
  'logmap',
  'queue_id',
  'received_at',
] as const satisfies ReadonlyArray<keyof EventRow>;

/**
 * Most rows one group stores. A commit waits for the disk (SQLite's fsync, PostgreSQL's WAL flush), which costs far
 * more than the rows it carries, so batches that arrive together share one.
 */
export const GROUP_MAX_ROWS = 1024;

/**
 * Groups committing at once on PostgreSQL: each waits for its WAL flush, and the next group can be sent meanwhile on
 * another pooled connection (rows go in entry-id order, so groups never deadlock). SQLite has one writer: one group.
 */
const PG_GROUPS_IN_FLIGHT = 4;

/**
 * On SQLite, statements hold a power of two of rows (1, 2, 4 … 1024; a group is split into at most 11 of them), so the
 * SQL texts are a handful that stay prepared, instead of one per group size crowding the app's own statements out of
 * the cache.
 */
function chunkSizes(rows: number): number[] {
  const sizes: number[] = [];
  let left = rows;
  for (; left >= GROUP_MAX_ROWS; left -= GROUP_MAX_ROWS) sizes.push(GROUP_MAX_ROWS);
  for (let size = GROUP_MAX_ROWS >> 1; size >= 1; size >>= 1) if (left & size) sizes.push(size);
  return sizes;
}

interface Waiting {
  rows: readonly EventRow[];
  resolve(counts: BatchCounts): void;
  reject(error: unknown): void;
}

const INTO = `insert into "tracking_events" (${COLUMNS.map((c) => `"${c}"`).join(', ')})`;
// No conflict target: SQLite's key is entry_id, PostgreSQL's partitioned table's is (entry_id, time) (migration 016),
// and a redelivered entry carries its time with it, so either key makes it a duplicate.
const ON_CONFLICT = 'on conflict do nothing returning "entry_id"';

/** SQLite: `insert … values (?, …), (?, …) on conflict do nothing returning entry_id` for `count` rows. */
function valuesSql(count: number): string {
  const tuple = `(${COLUMNS.map(() => '?').join(', ')})`;
  return `${INTO} values ${new Array<string>(count).fill(tuple).join(', ')} ${ON_CONFLICT}`;
}

/** PostgreSQL's types of the columns, for the arrays of the unnest insert. */
const PG_TYPES: Record<(typeof COLUMNS)[number], string> = {
  entry_id: 'text',
  app_key: 'text',
  produce_id: 'text',
  device_id: 'text',
  cold_start_id: 'text',
  seq_id: 'int4',
  uid: 'text',
  time: 'int8',
  oid: 'text',
  action: 'int4',
  foid: 'text',
  ffid: 'text',
  logmap: 'text',
  queue_id: 'text',
  received_at: 'int8',
};

/**
 * PostgreSQL: one array per column and `insert … select from unnest(…)`, so any number of rows is one statement with
 * 15 parameters and one text (one plan, prepared once), where multi-row VALUES had 15 per row and a text per size.
 */
const UNNEST_SQL = `${INTO} select * from unnest(${COLUMNS.map((c, i) => `$${i + 1}::${PG_TYPES[c]}[]`).join(', ')}) ${ON_CONFLICT}`;

/** Each batch's counts, from the entry ids the insert answered as new and the batch each id was taken from. */
function countStored(
  group: readonly Waiting[],
  owner: ReadonlyMap<string, number>,
  stored: readonly string[],
): BatchCounts[] {
  const counts = group.map((batch) => ({ stored: 0, duplicates: batch.rows.length }));
  for (const id of stored) {
    const batch = counts[owner.get(id)!]!;
    batch.stored++;
    batch.duplicates--;
  }
  return counts;
}

export function groupCommitter(database: AppDatabase) {
  const { db, engine } = database;
  /** The statement text per row count: a group of the same size as an earlier one reuses it. */
  const statements = new Map<number, string>();
  const statement = (count: number) => {
    let text = statements.get(count);
    if (text === undefined) statements.set(count, (text = valuesSql(count)));
    return text;
  };
  let waiting: Waiting[] = [];
  const inFlightMax = engine === 'postgres' ? PG_GROUPS_IN_FLIGHT : 1;
  /** Drain loops writing now, and whether one is already due at the end of this turn. */
  let active = 0;
  let scheduled = false;

  /**
   * Stores one group: an entry id twice in the group is stored for the first batch and a duplicate for the others;
   * rows go in entry-id order, so two instances storing overlapping groups take row locks in the same order and
   * PostgreSQL never sees them deadlock.
   */
  async function write(group: readonly Waiting[]): Promise<BatchCounts[]> {
    const owner = new Map<string, number>();
    const rows: EventRow[] = [];
    group.forEach((batch, index) => {
      for (const row of batch.rows) {
        if (owner.has(row.entry_id)) continue;
        owner.set(row.entry_id, index);
        rows.push(row);
      }
    });
    rows.sort((x, y) => (x.entry_id < y.entry_id ? -1 : x.entry_id > y.entry_id ? 1 : 0));
    if (engine === 'postgres') return countStored(group, owner, await unnestInsert(rows));
    const run = async (executor: Pick<AppDatabase['db'], 'executeQuery'>) => {
      const stored: string[] = [];
      let at = 0;
      for (const size of chunkSizes(rows.length)) {
        const params: unknown[] = new Array(size * COLUMNS.length);
        let p = 0;
        for (let r = at; r < at + size; r++) for (const column of COLUMNS) params[p++] = rows[r]![column];
        at += size;
        const result = await executor.executeQuery<{ entry_id: string }>(CompiledQuery.raw(statement(size), params));
        for (const row of result.rows) stored.push(row.entry_id);
      }
      return stored;
    };
    // One statement is atomic by itself; several share a transaction, so no batch is ever stored in part.
    return countStored(
      group,
      owner,
      chunkSizes(rows.length).length === 1 ? await run(db) : await db.transaction().execute(run),
    );
  }

  /** The rows in one unnest statement: the group's columns as 15 arrays. */
  async function unnestInsert(rows: readonly EventRow[]): Promise<string[]> {
    const params = COLUMNS.map((column) => rows.map((row) => row[column]));
    const result = await db.executeQuery<{ entry_id: string }>(CompiledQuery.raw(UNNEST_SQL, params));
    return result.rows.map((row) => row.entry_id);
  }

  /** Takes the waiting batches in arrival order, at most GROUP_MAX_ROWS rows (always at least one batch). */
  function nextGroup(): Waiting[] {
    let rows = 0;
    let end = 0;
    while (end < waiting.length && (end === 0 || rows + waiting[end]!.rows.length <= GROUP_MAX_ROWS))
      rows += waiting[end++]!.rows.length;
    const group = waiting.slice(0, end);
    waiting = waiting.slice(end);
    return group;
  }

  async function drain(): Promise<void> {
    scheduled = false;
    active++;
    try {
      while (waiting.length > 0) {
        const group = nextGroup();
        try {
          const counts = await write(group);
          group.forEach((batch, i) => batch.resolve(counts[i]!));
        } catch (error) {
          if (group.length === 1) group[0]!.reject(error);
          // One batch's failure must not fail the others that happened to share its statement.
          else for (const batch of group) await write([batch]).then(([counts]) => batch.resolve(counts!), batch.reject);
        }
      }
    } finally {
      active--;
    }
  }

  return {
    /**
     * Resolves once the rows are committed, with how many were new. The first batch of a group waits for the end
     * of the current event-loop turn (setImmediate), so every batch whose request was read in that turn joins it; on
     * PostgreSQL the batches arriving while groups commit form the next group, sent at once while fewer than
     * PG_GROUPS_IN_FLIGHT are committing, else when one of them is done.
     */
    store(rows: readonly EventRow[]): Promise<BatchCounts> {
      if (rows.length === 0) return Promise.resolve({ stored: 0, duplicates: 0 });
      return new Promise((resolve, reject) => {
        waiting.push({ rows, resolve, reject });
        if (scheduled || active >= inFlightMax) return;
        scheduled = true;
        setImmediate(() => void drain());
      });
    },
  };
}

export type GroupCommitter = ReturnType<typeof groupCommitter>;
