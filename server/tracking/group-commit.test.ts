// Group commit of collector batches on SQLite and (with TEST_DATABASE_URL) PostgreSQL: shared statements, per-batch
// counts, isolated failures.
import { describe, expect, it, vi } from 'vitest';
import { migrateToLatest } from '../db';
import { databaseEngines } from '../db/test-support/engines';
import { groupCommitter, GROUP_MAX_ROWS, type EventRow } from './group-commit';

const engines = databaseEngines('tracking_group');

let n = 0;
const rows = (count: number, prefix = `r${++n}`): EventRow[] =>
  Array.from({ length: count }, (_, i) => ({
    entry_id: `${prefix}-${String(i).padStart(4, '0')}`,
    app_key: 'k',
    produce_id: 'p',
    device_id: 'd',
    cold_start_id: 'c',
    seq_id: i + 1,
    uid: '',
    time: 1,
    oid: 'web_home_btn',
    action: 1,
    foid: '',
    ffid: '',
    logmap: '{}',
    queue_id: '123456789',
    received_at: 2,
  }));

describe.each(engines)('tracking group commit on $label', (engine) => {
  async function open() {
    const opened = await engine.open();
    await migrateToLatest(opened.database);
    const stored = async () =>
      (await opened.database.db.selectFrom('tracking_events').select('entry_id').execute())
        .map((r) => r.entry_id)
        .sort();
    return { ...opened, stored };
  }

  it('batches arriving in one turn share one statement, and each is answered with its own counts', async () => {
    const { database, dispose, stored } = await open();
    try {
      const committer = groupCommitter(database);
      const statements = vi.spyOn(database.db, 'executeQuery');
      const [a, b, c, d] = [rows(16), rows(16), rows(16), rows(16)];
      const answers = await Promise.all([a, b, c, d].map((batch) => committer.store(batch)));
      expect(answers).toEqual([a, b, c, d].map(() => ({ stored: 16, duplicates: 0 })));
      // 64 rows: one statement of 64, one commit, for four requests.
      expect(statements).toHaveBeenCalledTimes(1);
      expect(await stored()).toHaveLength(64);
    } finally {
      await dispose();
    }
  });

  it('an entry id in two batches of one group is stored for the first and a duplicate for the second; a resend stores nothing', async () => {
    const { database, dispose, stored } = await open();
    try {
      const committer = groupCommitter(database);
      const first = rows(5, 'shared');
      const overlapping = [...rows(3, 'shared').slice(1), ...rows(2)];
      expect(await Promise.all([committer.store(first), committer.store(overlapping)])).toEqual([
        { stored: 5, duplicates: 0 },
        { stored: 2, duplicates: 2 },
      ]);
      expect(await committer.store(first)).toEqual({ stored: 0, duplicates: 5 });
      expect(await stored()).toHaveLength(7);
    } finally {
      await dispose();
    }
  });

  it('more rows than one group holds are stored over several groups, every row once', async () => {
    const { database, dispose, stored } = await open();
    try {
      const committer = groupCommitter(database);
      const batches = Array.from({ length: 13 }, () => rows(100));
      expect(13 * 100).toBeGreaterThan(GROUP_MAX_ROWS);
      const answers = await Promise.all(batches.map((batch) => committer.store(batch)));
      expect(answers.every((a) => a.stored === 100 && a.duplicates === 0)).toBe(true);
      expect(await stored()).toHaveLength(1300);
    } finally {
      await dispose();
    }
  });

  it('a batch the database refuses fails alone: the others of its group are stored, none of its rows are', async () => {
    const { database, dispose, stored } = await open();
    try {
      const committer = groupCommitter(database);
      const good = rows(4);
      const bad = rows(3);
      (bad[1] as { oid: string | null }).oid = null; // not null in the table
      const results = await Promise.allSettled([committer.store(good), committer.store(bad), committer.store(rows(2))]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const ids = await stored();
      expect(ids).toHaveLength(6);
      expect(ids.some((id) => bad.some((row) => row.entry_id === id))).toBe(false);
    } finally {
      await dispose();
    }
  });
});
