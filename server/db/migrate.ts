// Brings a database up to the newest schema this build knows, one migration per transaction, and refuses newer ones.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { AppDatabase } from './connect.ts';
import { migrations as knownMigrations } from './migrations/index.ts';
import type { Migration } from './migrations/index.ts';
import type { Schema } from './schema.ts';

/** The database was migrated by a newer build; running older code against it could corrupt data. */
export class SchemaTooNewError extends Error {
  readonly databaseVersion: number;
  readonly knownVersion: number;

  constructor(databaseVersion: number, knownVersion: number) {
    super(
      `database schema is at version ${databaseVersion} but this build knows up to ${knownVersion}; ` +
        'upgrade the server (or point it at a database made for this version)',
    );
    this.name = 'SchemaTooNewError';
    this.databaseVersion = databaseVersion;
    this.knownVersion = knownVersion;
  }
}

export interface MigrationResult {
  /** Names of the migrations this call applied, in order; empty when the schema was already current. */
  applied: string[];
  /** The schema version the database is at afterwards. */
  version: number;
}

// First key of PostgreSQL's two-key advisory lock, so our lock cannot collide with another
// application's single-key locks; the second key is the schema, so separate schemas migrate independently.
const PG_LOCK_CLASS = 0x6d696772; // 'migr'

export async function migrateToLatest(
  app: AppDatabase,
  list: readonly Migration[] = knownMigrations,
): Promise<MigrationResult> {
  checkOrder(list);
  const knownVersion = list.at(-1)?.version ?? 0;
  const applied: string[] = [];
  // One transaction per migration, each re-reading the version under the lock: a second process that
  // started at the same time waits, then finds the work done and applies nothing.
  for (;;) {
    const step = await inLockedTransaction(app, async (db) => {
      await ensureVersionTable(db);
      const current = await readVersion(db);
      if (current > knownVersion) throw new SchemaTooNewError(current, knownVersion);
      const next = list[current];
      if (next === undefined) return { version: current, applied: undefined };
      try {
        await next.up(db as Kysely<unknown>, app.engine);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`migration ${next.name} failed and was rolled back: ${reason}`, { cause: error });
      }
      await db
        .insertInto('schema_version')
        .values({ version: next.version, name: next.name, applied_at: Date.now() })
        .execute();
      return { version: next.version, applied: next.name };
    });
    if (step.applied === undefined) return { applied, version: step.version };
    applied.push(step.applied);
  }
}

/** Versions must run 1, 2, 3… so that list[version] is always the next migration to apply. */
function checkOrder(list: readonly Migration[]): void {
  list.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `migration list is out of order: position ${index + 1} holds ${migration.name} with version ${migration.version}; ` +
          'versions must be 1, 2, 3… in order',
      );
    }
  });
}

async function ensureVersionTable(db: Kysely<Schema>): Promise<void> {
  await db.schema
    .createTable('schema_version')
    .ifNotExists()
    .addColumn('version', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('applied_at', 'bigint', (c) => c.notNull())
    .execute();
}

async function readVersion(db: Kysely<Schema>): Promise<number> {
  const row = await db
    .selectFrom('schema_version')
    .select((eb) => eb.fn.max('version').as('version'))
    .executeTakeFirst();
  return row?.version == null ? 0 : Number(row.version);
}

/**
 * Runs fn in a transaction that holds the migration lock until it commits or rolls back, so two server
 * processes starting together never apply the same migration twice.
 */
async function inLockedTransaction<T>(app: AppDatabase, fn: (db: Kysely<Schema>) => Promise<T>): Promise<T> {
  if (app.engine === 'postgres') {
    return app.db.transaction().execute(async (trx) => {
      // coalesce: with no schema on the search_path hashtext would get NULL, and the lock function would
      // then return without locking anything.
      await sql`select pg_advisory_xact_lock(${sql.lit(PG_LOCK_CLASS)}, hashtext(coalesce(current_schema(), '')))`.execute(
        trx,
      );
      return fn(trx);
    });
  }
  // SQLite: Kysely's transaction() issues a deferred BEGIN, which takes the write lock only at the first
  // write; two processes could both read the old version first and one would then fail with SQLITE_BUSY.
  // BEGIN IMMEDIATE takes the write lock up front, and busy_timeout makes the other process wait for it.
  return app.db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      try {
        await sql`rollback`.execute(conn);
      } catch {
        // SQLite already rolled back by itself after some errors (e.g. disk full); the original error matters.
      }
      throw error;
    }
  });
}
