// Keeps the SQLite statements the app runs prepared: Kysely's SQLite driver otherwise prepares each query's SQL anew on
// every call.
import type { Database, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * How many distinct SQL texts stay prepared. The app's queries are a few hundred shapes at most; texts that vary
 * with their input (an `in (?, ?, …)` list, a batch insert) add more, and the oldest prepared are dropped first.
 */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely opens every transaction with a plain (deferred) `begin`. In WAL mode a deferred transaction that has read
 * and then writes fails at once with SQLITE_BUSY when another connection (the admin CLI, a second process) committed
 * in between; busy_timeout does not help there. Taking the write lock at `begin` makes that other writer wait instead.
 */
const BEGIN_WRITE = 'begin immediate';

/**
 * The database as Kysely's SqliteDialect sees it, with `prepare` answered from a cache keyed by SQL text. SQLite
 * re-prepares a cached statement by itself when a migration changes the schema under it. One statement can serve
 * every caller: all() and run() finish before they return, and while a stream (iterate) is open better-sqlite3
 * refuses every other query on the connection anyway.
 */
export function cachedStatements(handle: Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const cache = new Map<string, Statement>();
  return {
    close: () => handle.close(),
    prepare(text) {
      const sql = text === 'begin' ? BEGIN_WRITE : text;
      let statement = cache.get(sql);
      if (statement) return statement;
      statement = handle.prepare(sql);
      if (cache.size >= size) cache.delete(cache.keys().next().value!);
      cache.set(sql, statement);
      return statement;
    },
  };
}
