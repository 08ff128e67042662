// Migration 016 on a database that already holds events: every row is kept (moved into the partitioned table on
// PostgreSQL), and the key still refuses duplicates.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrate.ts';
import { databaseEngines } from '../test-support/engines.ts';
import { migrations } from './index.ts';
import { trackingEventRow as event } from '../../test-support/tracking-events.ts';

const engines = databaseEngines('mig016');
const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = Date.now();

describe.each(engines)('migration 016 on $label', (engine) => {
  it('keeps every existing event, and a redelivered one is still a duplicate', async () => {
    const { database, dispose } = await engine.open();
    try {
      const before = migrations.filter((m) => m.version < 16);
      await migrateToLatest(database, before);
      // Today, a month back (within the days that get their own partition) and a year back (older: the default
      // partition).
      const rows = [event('today', NOW), event('month', NOW - 30 * DAY_MS), event('year', NOW - 365 * DAY_MS)];
      await database.db.insertInto('tracking_events').values(rows).execute();
      await migrateToLatest(database);
      const kept = await database.db.selectFrom('tracking_events').selectAll().orderBy('entry_id').execute();
      expect(kept.map((r) => [r.entry_id, Number(r.time)])).toEqual([
        ['month', NOW - 30 * DAY_MS],
        ['today', NOW],
        ['year', NOW - 365 * DAY_MS],
      ]);
      const again =
        await sql`insert into tracking_events select * from tracking_events where entry_id = 'month' on conflict do nothing`.execute(
          database.db,
        );
      expect(Number(again.numAffectedRows)).toBe(0);
      if (engine.label === 'postgres') {
        const where = await sql<{
          entry_id: string;
          part: string;
        }>`select entry_id, tableoid::regclass::text as part from tracking_events order by entry_id`.execute(
          database.db,
        );
        const day = (ms: number) =>
          `tracking_events_p${new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;
        expect(where.rows.map((r) => [r.entry_id, r.part.replace(/^.*\./, '')])).toEqual([
          ['month', day(NOW - 30 * DAY_MS)],
          ['today', day(NOW)],
          ['year', 'tracking_events_default'],
        ]);
        const old = await sql<{
          n: string;
        }>`select count(*) as n from pg_class where relname = 'tracking_events_unpartitioned'`.execute(database.db);
        expect(Number(old.rows[0]!.n)).toBe(0);
      }
    } finally {
      await dispose();
    }
  });
});
