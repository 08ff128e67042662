// Tests of opening the database and of the rows it keeps on SQLite (file and in-memory) and, when TEST_DATABASE_URL is
// set, PostgreSQL.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from './index.ts';
import { databaseEachTest, databaseTargets, newUser, tempRoot } from './test-support/targets.ts';

const targets = databaseTargets();

describe.each(targets)('database on $label', (target) => {
  const fixture = databaseEachTest(target);

  it('round-trips users and credit_ledger rows with integer columns read back as numbers', async () => {
    const app = await fixture.open();
    await migrateToLatest(app);
    // Epoch milliseconds exceed 32 bits, so this also checks bigint columns on PostgreSQL.
    const now = Date.now();
    await app.db
      .insertInto('users')
      .values({ id: 'u_round', email: 'round@example.com', created_at: now, updated_at: now + 1 })
      .execute();
    await app.db.updateTable('users').set({ credits: 500 }).where('id', '=', 'u_round').execute();

    const user = await app.db.selectFrom('users').selectAll().where('id', '=', 'u_round').executeTakeFirstOrThrow();

    expect(user).toEqual({
      id: 'u_round',
      email: 'round@example.com',
      name: '',
      company: null,
      channel: null,
      credits: 500,
      suspended: 0,
      country_code: null,
      referer: null,
      referer_url: null,
      created_at: now,
      updated_at: now + 1,
      info_asked_at: null,
    });

    const grant = { user_id: 'u_round', delta: 500, balance_after: 500, reason: 'invitation', created_at: now };
    const spend = { user_id: 'u_round', delta: -2, balance_after: 498, reason: 'image', created_at: now + 5 };
    const inserted = await app.db
      .insertInto('credit_ledger')
      .values([{ ...grant, reference: 'WELCOME' }, spend])
      .returning('id')
      .execute();
    const ledger = await app.db
      .selectFrom('credit_ledger')
      .selectAll()
      .where('user_id', '=', 'u_round')
      .orderBy('id')
      .execute();
    const { count } = await app.db
      .selectFrom('credit_ledger')
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();

    expect(inserted.map((r) => typeof r.id)).toEqual(['number', 'number']);
    // A row inserted without a reference reads back with it null.
    expect(ledger).toEqual([
      { id: inserted[0]?.id, ...grant, reference: 'WELCOME' },
      { id: inserted[1]?.id, ...spend, reference: null },
    ]);
    expect(ledger[1]!.id).toBeGreaterThan(ledger[0]!.id);
    // count(*) is bigint on PostgreSQL: it must come back as a number too.
    expect(count).toBe(2);
  });

  it('rejects a second user with the same email but allows many users without one', async () => {
    const app = await fixture.open();
    await migrateToLatest(app);
    await app.db.insertInto('users').values(newUser('u_1', 'same@example.com')).execute();

    await expect(app.db.insertInto('users').values(newUser('u_2', 'same@example.com')).execute()).rejects.toThrow(
      /unique|duplicate/i,
    );

    await app.db
      .insertInto('users')
      .values([newUser('u_3', null), newUser('u_4', null)])
      .execute();
    const ids = await app.db.selectFrom('users').select('id').orderBy('id').execute();
    expect(ids.map((r) => r.id)).toEqual(['u_1', 'u_3', 'u_4']);
  });

  it('enforces foreign keys', async () => {
    const app = await fixture.open();
    await migrateToLatest(app);
    const now = Date.now();

    await expect(
      app.db
        .insertInto('sessions')
        .values({ token_hash: 'h', user_id: 'nobody', created_at: now, expires_at: now + 1000 })
        .execute(),
    ).rejects.toThrow(/foreign key/i);
  });

  it('rolls back a transaction that throws and keeps one that commits', async () => {
    const app = await fixture.open();
    await migrateToLatest(app);
    await app.db
      .insertInto('users')
      .values({ ...newUser('u_tx', null), credits: 100 })
      .execute();
    const spend = async (trx: typeof app.db, delta: number) => {
      await trx
        .updateTable('users')
        .set({ credits: 100 + delta })
        .where('id', '=', 'u_tx')
        .execute();
      await trx
        .insertInto('credit_ledger')
        .values({ user_id: 'u_tx', delta, balance_after: 100 + delta, reason: 'test', created_at: Date.now() })
        .execute();
    };

    await expect(
      app.db.transaction().execute(async (trx) => {
        await spend(trx, -2);
        throw new Error('task failed');
      }),
    ).rejects.toThrow('task failed');

    const afterRollback = await app.db
      .selectFrom('users')
      .select('credits')
      .where('id', '=', 'u_tx')
      .executeTakeFirstOrThrow();
    expect(afterRollback.credits).toBe(100);
    expect(await app.db.selectFrom('credit_ledger').selectAll().execute()).toEqual([]);

    await app.db.transaction().execute((trx) => spend(trx, -3));
    const afterCommit = await app.db
      .selectFrom('users')
      .select('credits')
      .where('id', '=', 'u_tx')
      .executeTakeFirstOrThrow();
    expect(afterCommit.credits).toBe(97);
    expect(await app.db.selectFrom('credit_ledger').select('delta').execute()).toEqual([{ delta: -3 }]);
  });
});

describe('openDatabase', () => {
  it('rejects an unknown URL scheme, names the accepted forms and does not echo credentials', async () => {
    const opening = openDatabase('mysql://admin:s3cret@db.example.com/app');

    await expect(opening).rejects.toThrow(/sqlite:<path>.*sqlite::memory:.*postgres:\/\/.*postgresql:\/\//);
    await expect(opening).rejects.toThrow(/"mysql:"/);
    await expect(opening).rejects.not.toThrow(/s3cret/);
  });

  it('rejects "sqlite:" without a path', async () => {
    await expect(openDatabase('sqlite:')).rejects.toThrow(/no file path/);
  });

  it('creates parent directories of a SQLite file and sets WAL, foreign keys and busy timeout', async () => {
    const path = join(tempRoot, randomUUID(), 'nested', 'deeper', 'app.db');
    // The sqlite:///absolute form resolves to the same file as sqlite:/absolute.
    const app = await openDatabase(`sqlite://${path}`);
    try {
      expect(existsSync(path)).toBe(true);
      const pragma = async (name: string) =>
        (await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(app.db)).rows;
      expect(await pragma('journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      expect(await pragma('foreign_keys')).toEqual([{ foreign_keys: 1 }]);
      expect(await pragma('busy_timeout')).toEqual([{ timeout: 5000 }]);
      expect(app.engine).toBe('sqlite');
    } finally {
      await app.close();
    }
    // Closing twice is harmless, so shutdown paths need not track whether they already closed.
    await expect(app.close()).resolves.toBeUndefined();
  });

  it('rejects a PostgreSQL searchPath that is not a plain identifier before connecting', async () => {
    await expect(
      openDatabase('postgres://nobody@127.0.0.1:1/none', { searchPath: 'x; drop table users' }),
    ).rejects.toThrow(/searchPath must be a plain SQL identifier/);
  });
});
