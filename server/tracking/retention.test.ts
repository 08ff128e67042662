// Tracking retention on SQLite and (TEST_DATABASE_URL) PostgreSQL: paged deletes, partitions made ahead and dropped,
// duplicates refused.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, type AppDatabase } from '../db';
import { databaseEngines } from '../db/test-support/engines';
import { trackingEventRow } from '../test-support/tracking-events';
import { groupCommitter, type EventRow } from './group-commit';
import { createPartitions, DAY_MS, partitionDays } from './partitions';
import { pruneTrackingEvents } from './retention';

const engines = databaseEngines('trkret');
/** Noon today: the migration makes partitions around the real today, and the test prunes as of this instant. */
const NOW = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS / 2;
const TODAY = Math.floor(NOW / DAY_MS);

/** A stored event, with quotes and a backslash in its logmap. */
const row = (id: string, time: number, receivedAt = NOW): EventRow =>
  trackingEventRow(id, time, { received_at: receivedAt, logmap: '{"a":"\\"quoted\\" and \\\\ back"}' });

async function count(database: AppDatabase): Promise<number> {
  const r = await database.db
    .selectFrom('tracking_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

describe.each(engines)('tracking retention on $label', (engine) => {
  it('deletes every event older than the retention, in pages smaller than the backlog, and keeps the rest', async () => {
    const { database, dispose } = await engine.open();
    try {
      await migrateToLatest(database);
      const store = groupCommitter(database);
      // 23 old events (more than two pages of 10) a week back, 5 of this morning, 2 from a clock far ahead that arrived
      // long ago.
      const old = Array.from({ length: 23 }, (_, i) => row(`old-${i}`, NOW - 7 * DAY_MS + i, NOW - 7 * DAY_MS));
      const fresh = Array.from({ length: 5 }, (_, i) => row(`new-${i}`, NOW - 1000 * i));
      const ahead = [row('ahead-0', NOW + 400 * DAY_MS, NOW - 7 * DAY_MS), row('ahead-1', NOW + 400 * DAY_MS, NOW)];
      expect(await store.store([...old, ...fresh, ...ahead])).toEqual({ stored: 30, duplicates: 0 });
      // Every statement's affected rows, seen through a plugin: none may delete more than a page.
      const touched: number[] = [];
      const counted: AppDatabase = {
        ...database,
        db: database.db.withPlugin({
          transformQuery: (args) => args.node,
          transformResult: async (args) => (
            args.result.numAffectedRows !== undefined && touched.push(Number(args.result.numAffectedRows)),
            args.result
          ),
        }),
      };
      const pruned = await pruneTrackingEvents(counted, { retentionDays: 3, now: NOW, pageRows: 10 });
      expect(touched.filter((n) => n > 0)).toEqual([10, 10, 4]);
      expect(await count(database)).toBe(6);
      const left = await database.db.selectFrom('tracking_events').select('entry_id').orderBy('entry_id').execute();
      expect(left.map((r) => r.entry_id)).toEqual(['ahead-1', 'new-0', 'new-1', 'new-2', 'new-3', 'new-4']);
      // On SQLite every old row went by paged delete; on PostgreSQL the week-old day was in the default partition
      // (the migration made partitions from yesterday on), so it went the same way.
      expect(pruned.removed).toBe(24);
      // A second pass finds nothing.
      expect((await pruneTrackingEvents(database, { retentionDays: 3, now: NOW, pageRows: 10 })).removed).toBe(0);
    } finally {
      await dispose();
    }
  });

  it('refuses a redelivered entry as a duplicate (same id, same time), in the same group and in a later one', async () => {
    const { database, dispose } = await engine.open();
    try {
      await migrateToLatest(database);
      const store = groupCommitter(database);
      const [first, second] = await Promise.all([
        store.store([row('e1', NOW), row('e2', NOW)]),
        store.store([row('e2', NOW), row('e3', NOW)]),
      ]);
      expect(first).toEqual({ stored: 2, duplicates: 0 });
      expect(second).toEqual({ stored: 1, duplicates: 1 });
      expect(await store.store([row('e1', NOW), row('e3', NOW)])).toEqual({ stored: 0, duplicates: 2 });
      const stored = await database.db
        .selectFrom('tracking_events')
        .select('logmap')
        .where('entry_id', '=', 'e1')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(stored.logmap)).toEqual({ a: '"quoted" and \\ back' });
    } finally {
      await dispose();
    }
  });
});

describe.each(engines.filter((e) => e.label === 'postgres'))('tracking_events partitions on $label', (engine) => {
  it('is partitioned by day; the chore makes days ahead (moving their events out of the default) and drops whole old days', async () => {
    const { database, dispose } = await engine.open();
    try {
      await migrateToLatest(database);
      const { rows } = await sql<{
        kind: string;
      }>`select c.relkind as kind from pg_class c where c.oid = 'tracking_events'::regclass`.execute(database.db);
      expect(rows[0]!.kind).toBe('p');
      const store = groupCommitter(database);
      // Ten days from now no partition exists yet: these land in the default partition.
      const later = TODAY + 10;
      await store.store([row('later-1', later * DAY_MS + 5), row('later-2', later * DAY_MS + 6)]);
      // Made by the chore as "today" moves on: the day's partition is made and its events moved into it.
      const pruned = await pruneTrackingEvents(database, { retentionDays: 30, now: later * DAY_MS + 1 });
      expect(pruned.partitionsMade).toBeGreaterThan(0);
      expect(await partitionDays(database.db)).toContain(later);
      const inDay = await sql<{
        n: string;
      }>`select count(*) as n from ${sql.table(`tracking_events_p${new Date(later * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`)}`.execute(
        database.db,
      );
      expect(Number(inDay.rows[0]!.n)).toBe(2);
      // Still one entry each: the moved rows keep refusing their duplicates.
      expect(await store.store([row('later-1', later * DAY_MS + 5)])).toEqual({ stored: 0, duplicates: 1 });
      // Forty days on, with 30 days kept: every partition up to `later` is past the retention and dropped whole.
      const dropped = await pruneTrackingEvents(database, { retentionDays: 30, now: (later + 40) * DAY_MS });
      expect(dropped.partitionsDropped).toBeGreaterThan(0);
      const days = await partitionDays(database.db);
      expect(Math.min(...days)).toBeGreaterThanOrEqual(later + 10);
      expect(await count(database)).toBe(0);
    } finally {
      await dispose();
    }
  });

  it('a drop that cannot get its lock within a second gives up until the next pass, and never fails the pass', async () => {
    const { database, dispose } = await engine.open();
    try {
      await migrateToLatest(database);
      const old = TODAY - 40;
      expect(await createPartitions(database.db, old, old)).toEqual([old]);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let inserted!: () => void;
      const insertedNow = new Promise<void>((resolve) => (inserted = resolve));
      // An insert whose transaction stays open holds a lock on tracking_events, as a collector group committing would.
      const insert = database.db.transaction().execute(async (trx) => {
        await trx.insertInto('tracking_events').values(row('held', NOW)).execute();
        inserted();
        await held;
      });
      await insertedNow;
      const blocked = await pruneTrackingEvents(database, { retentionDays: 30, now: NOW });
      expect(blocked.partitionsDropped).toBe(0);
      expect(await partitionDays(database.db)).toContain(old);
      release();
      await insert;
      const next = await pruneTrackingEvents(database, { retentionDays: 30, now: NOW });
      expect(next.partitionsDropped).toBe(1);
      expect(await partitionDays(database.db)).not.toContain(old);
    } finally {
      await dispose();
    }
  });
});
