// Opens the API server's database from a URL: embedded SQLite (default) or PostgreSQL, both behind Kysely.
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { makePrivateDir, restrictToOwner } from '../private-files/index.ts';
import type { Engine } from './migrations/index.ts';
import type { Schema } from './schema.ts';
import { cachedStatements } from './statement-cache.ts';

/**
 * Open one per process and share it. For a SQLite file this matters: better-sqlite3 waits for locks
 * synchronously, so a second handle in the same process could block the event loop the first one needs.
 */
export interface AppDatabase {
  db: Kysely<Schema>;
  engine: Engine;
  /** Closes the SQLite file or ends the PostgreSQL pool; calling it again is harmless. */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /**
   * PostgreSQL only: schema to put first on every connection's search_path, so one database can hold
   * several isolated copies of the tables (used by tests, or to share a database between deployments).
   */
  searchPath?: string;
  /** PostgreSQL only: maximum pool size (pg's default of 10 when omitted). */
  maxConnections?: number;
  /**
   * PostgreSQL only: how long opening one connection may take, and when TCP keepalive starts (the server passes
   * OUTAGES' values; this module runs under plain Node too, so it takes them as options instead of importing the
   * rules).
   */
  connectTimeoutMs?: number;
  keepAliveDelayMs?: number;
}

const ACCEPTED_FORMS =
  'sqlite:<path> (e.g. sqlite:./data/app.db), sqlite::memory:, postgres://user:password@host:port/database or postgresql://…';

// OID of PostgreSQL's int8/bigint. pg returns it as a string by default because it may exceed 2^53;
// our int8 columns hold epoch milliseconds and ids, far below that, and callers expect numbers on both engines.
const INT8_OID = 20;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export async function openDatabase(url: string, options: OpenDatabaseOptions = {}): Promise<AppDatabase> {
  const trimmed = url.trim();
  if (/^sqlite:/i.test(trimmed)) return openSqlite(sqlitePath(trimmed));
  if (/^postgres(ql)?:\/\//i.test(trimmed)) return openPostgres(trimmed, options);
  // Only the scheme is echoed back: the rest of a database URL may carry a password.
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(trimmed)?.[1];
  const shown = scheme ? `a "${scheme}:" URL` : `"${trimmed.length > 40 ? '(unrecognised value)' : trimmed}"`;
  throw new Error(`Unsupported database URL: got ${shown}; accepted forms are ${ACCEPTED_FORMS}`);
}

function sqlitePath(url: string): string {
  // Also accept the common sqlite:///absolute/path and sqlite://relative/path spellings.
  let path = url.slice('sqlite:'.length);
  if (path.startsWith('//')) path = path.slice(2);
  if (path === '') throw new Error(`Database URL "sqlite:" has no file path; accepted forms are ${ACCEPTED_FORMS}`);
  return path;
}

function openSqlite(path: string): AppDatabase {
  const inMemory = path === ':memory:';
  if (!inMemory) makePrivateDir(dirname(resolve(path)));
  const handle = new Database(path);
  try {
    // Owner-only before WAL mode is set: SQLite gives the -wal and -shm files the database file's mode.
    if (!inMemory) for (const file of [path, `${path}-wal`, `${path}-shm`]) restrictToOwner(file);
    // WAL lets readers proceed while a writer commits; foreign keys are off by default in SQLite;
    // busy_timeout makes a second process wait for the write lock instead of failing at once.
    handle.pragma('journal_mode = WAL');
    handle.pragma('foreign_keys = ON');
    handle.pragma('busy_timeout = 5000');
  } catch (error) {
    handle.close();
    throw error;
  }
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: cachedStatements(handle) }) });
  return { db, engine: 'sqlite', close: once(() => closeSqlite(db, handle)) };
}

async function closeSqlite(db: Kysely<Schema>, handle: Database.Database): Promise<void> {
  await db.destroy();
  // Kysely only closes the handle if it ever ran a query; close it ourselves when it did not.
  if (handle.open) handle.close();
}

/**
 * Connecting is bounded here, on the client, not with the pool's connectionTimeoutMillis: that would also bound the
 * wait for a free pooled connection, and a burst of requests queueing behind a busy pool is no outage.
 */
function boundedClient(connectTimeoutMs: number): typeof pg.Client {
  return class BoundedClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
    }
  };
}

async function openPostgres(url: string, options: OpenDatabaseOptions): Promise<AppDatabase> {
  const { searchPath, maxConnections, connectTimeoutMs, keepAliveDelayMs } = options;
  if (searchPath !== undefined && !IDENTIFIER.test(searchPath)) {
    throw new Error(`searchPath must be a plain SQL identifier (letters, digits, underscore), got "${searchPath}"`);
  }
  const types = new pg.TypeOverrides();
  types.setTypeParser(INT8_OID, (value: string) => Number(value));
  const pool = new pg.Pool({
    connectionString: url,
    types,
    // A server that does not answer fails each new connection within a bound (answered 503, server/http/errors.ts);
    // keepalive finds a connection that half-opened.
    ...(connectTimeoutMs !== undefined ? { Client: boundedClient(connectTimeoutMs) } : {}),
    keepAlive: true,
    ...(keepAliveDelayMs !== undefined ? { keepAliveInitialDelayMillis: keepAliveDelayMs } : {}),
    ...(maxConnections !== undefined ? { max: maxConnections } : {}),
    ...(searchPath !== undefined ? { options: `-c search_path=${searchPath}` } : {}),
  });
  // An idle pooled client can lose its connection (server restart, network); without a listener that
  // 'error' event would crash the process. The pool discards the client and the next query reconnects.
  pool.on('error', (error) => {
    console.error('[db] idle PostgreSQL connection failed:', error.message);
  });
  // A connection cut while checked out (a reset socket) can emit 'error' after its query has already failed with it;
  // with no listener that would end the process. The query's own rejection reports it; this only keeps the process up.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  try {
    // Connect now so a wrong URL or an unreachable server fails at start-up, not on the first request.
    await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, engine: 'postgres', close: once(() => db.destroy()) };
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}
