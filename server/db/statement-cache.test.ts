// The SQLite statement cache: one prepare per SQL text, streams of cached texts, schema changes picked up, a bounded
// size.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedStatements } from './statement-cache';

interface Db {
  items: { id: number; name: string; note?: string | null };
}

const opened: Database.Database[] = [];
afterEach(() => {
  for (const handle of opened.splice(0)) if (handle.open) handle.close();
});

/** An in-memory database whose prepare() calls are counted, behind the cache. */
function open(size?: number) {
  const handle = new Database(':memory:');
  opened.push(handle);
  handle.exec(
    "create table items (id integer primary key, name text not null); insert into items (name) values ('a'), ('b'), ('c')",
  );
  const prepared: string[] = [];
  const prepare = handle.prepare.bind(handle);
  handle.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof handle.prepare;
  const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: cachedStatements(handle, size) }) });
  return { db, handle, prepared };
}

describe('cachedStatements', () => {
  it('prepares each SQL text once however often it runs, with each call its own values', async () => {
    const { db, prepared } = open();
    const byId = (id: number) => db.selectFrom('items').select('name').where('id', '=', id).executeTakeFirst();
    expect(await byId(1)).toEqual({ name: 'a' });
    expect(await byId(2)).toEqual({ name: 'b' });
    expect(await byId(9)).toBeUndefined();
    await db.updateTable('items').set({ name: 'z' }).where('id', '=', 3).execute();
    await db.updateTable('items').set({ name: 'y' }).where('id', '=', 3).execute();
    expect(await byId(3)).toEqual({ name: 'y' });
    expect(prepared).toHaveLength(2);
  });

  it('streams a SQL text that plain queries run too, a stream left early included', async () => {
    const { db } = open();
    const query = db.selectFrom('items').select('name').orderBy('id');
    expect(await query.execute()).toHaveLength(3);
    const streamed: string[] = [];
    for await (const row of query.stream()) streamed.push(row.name);
    expect(streamed).toEqual(['a', 'b', 'c']);
    for await (const row of query.stream()) if (row.name === 'a') break;
    expect(await query.execute()).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
  });

  it('sees a column added after the statement was prepared', async () => {
    const { db, handle } = open();
    expect(await db.selectFrom('items').selectAll().where('id', '=', 1).executeTakeFirst()).toEqual({
      id: 1,
      name: 'a',
    });
    handle.exec('alter table items add column note text');
    expect(await db.selectFrom('items').selectAll().where('id', '=', 1).executeTakeFirst()).toEqual({
      id: 1,
      name: 'a',
      note: null,
    });
  });

  it('keeps at most `size` statements, dropping the oldest first', async () => {
    const { db, prepared } = open(2);
    const first = () => db.selectFrom('items').select('id').execute();
    await first();
    await db.selectFrom('items').select('name').execute();
    await first();
    expect(prepared).toHaveLength(2);
    await db.selectFrom('items').selectAll().execute();
    await first();
    expect(prepared).toHaveLength(4);
  });
});

describe('transactions on a file shared with another connection', () => {
  it('take the write lock at begin, so a commit by another connection cannot fail them half-way (SQLITE_BUSY)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'begin-immediate-'));
    const file = path.join(dir, 'shared.db');
    const mine = new Database(file);
    const other = new Database(file);
    opened.push(mine, other);
    mine.pragma('journal_mode = WAL');
    mine.exec("create table items (id integer primary key, name text not null); insert into items (name) values ('a')");
    // The other connection does not wait: it meets the lock, or commits if the transaction has not taken it.
    other.pragma('busy_timeout = 0');
    const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: cachedStatements(mine) }) });
    let otherWrite = 'not tried';
    await db.transaction().execute(async (trx) => {
      const { name } = await trx.selectFrom('items').select('name').where('id', '=', 1).executeTakeFirstOrThrow();
      try {
        other.prepare("update items set name = 'from the other connection' where id = 1").run();
        otherWrite = 'committed';
      } catch (error) {
        otherWrite = (error as { code?: string }).code ?? String(error);
      }
      await trx
        .updateTable('items')
        .set({ name: `${name}+` })
        .where('id', '=', 1)
        .execute();
    });
    expect(otherWrite).toBe('SQLITE_BUSY');
    expect(mine.prepare('select name from items where id = 1').get()).toEqual({ name: 'a+' });
    rmSync(dir, { recursive: true, force: true });
  });
});
