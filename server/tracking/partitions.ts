// The daily partitions of tracking_events on PostgreSQL (migration 016): made ahead of time, old ones dropped whole.
import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db';

export const DAY_MS = 24 * 60 * 60 * 1000;
const PREFIX = 'tracking_events_p';
const NAME = /^tracking_events_p(\d{4})(\d{2})(\d{2})$/;
/** Serializes partition changes across processes (a pass on a worker, another in a CLI); an arbitrary constant. */
const PARTITIONS_LOCK = 0x74726b70;

/** The partition of day `day` (days since the epoch, UTC): tracking_events_pYYYYMMDD, as migration 016 names them. */
export function partitionName(day: number): string {
  return PREFIX + new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '');
}

/** The day a partition name stands for, or null for any other table (the default partition). */
export function partitionDay(name: string): number | null {
  const match = NAME.exec(name);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS : null;
}

/** The daily partitions that exist, as days since the epoch, in order. */
export async function partitionDays(db: Kysely<Schema>): Promise<number[]> {
  const { rows } = await sql<{
    name: string;
  }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'tracking_events'::regclass`.execute(db);
  return rows
    .map((r) => partitionDay(r.name))
    .filter((day): day is number => day !== null)
    .sort((a, b) => a - b);
}

/**
 * Makes the partitions of days `from` to `to` that are missing. A day's events already sitting in the default partition
 * (they arrived before their day had one) are moved into it in the same transaction, since PostgreSQL refuses to
 * attach a partition whose range the default partition still holds rows of. Answers the days made.
 */
export async function createPartitions(db: Kysely<Schema>, from: number, to: number): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${PARTITIONS_LOCK})`.execute(trx);
    const existing = new Set(await partitionDays(trx));
    const made: number[] = [];
    for (let day = from; day <= to; day++) {
      if (existing.has(day)) continue;
      const table = sql.table(partitionName(day));
      const [start, end] = [sql.lit(day * DAY_MS), sql.lit((day + 1) * DAY_MS)];
      await sql`create table ${table} (like tracking_events including defaults)`.execute(trx);
      await sql`with moved as (delete from tracking_events_default where "time" >= ${start} and "time" < ${end} returning *)
        insert into ${table} select * from moved`.execute(trx);
      await sql`alter table tracking_events attach partition ${table} for values from (${start}) to (${end})`.execute(
        trx,
      );
      made.push(day);
    }
    return made;
  });
}

/**
 * Drops the partitions whose whole day is before `cutoffMs`. A drop waits for inserts in flight on the table; the lock
 * timeout keeps it from queueing the collector behind it for long: a partition not dropped now is dropped next pass.
 */
export async function dropPartitionsBefore(
  db: Kysely<Schema>,
  cutoffMs: number,
  lockTimeoutMs: number,
): Promise<number[]> {
  const dropped: number[] = [];
  for (const day of await partitionDays(db)) {
    if ((day + 1) * DAY_MS > cutoffMs) break;
    try {
      await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${PARTITIONS_LOCK})`.execute(trx);
        await sql`select set_config('lock_timeout', ${`${lockTimeoutMs}ms`}, true)`.execute(trx);
        await sql`drop table if exists ${sql.table(partitionName(day))}`.execute(trx);
      });
    } catch (error) {
      // lock_not_available: busy now, dropped on a later pass; anything else is a real failure.
      if ((error as { code?: unknown }).code === '55P03') break;
      throw error;
    }
    dropped.push(day);
  }
  return dropped;
}
