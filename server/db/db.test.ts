// Tests of the database layer on SQLite (file and in-memory) and, when TEST_DATABASE_URL is set, PostgreSQL.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, migrations, openDatabase, SchemaTooNewError } from './index.ts';
import type { AppDatabase, Migration, MigrationResult, OpenDatabaseOptions } from './index.ts';
import { migrationsWithSlowOne } from './test-support/slow-migration.ts';

/** An empty database; open() returns a handle to it, a new one each call where the engine allows. */
interface Fixture {
  /** How another process reaches the same database; null when only this process can (SQLite in memory). */
  shared: { url: string; options: OpenDatabaseOptions } | null;
  open(): Promise<AppDatabase>;
  dispose(): Promise<void>;
}

interface Target {
  label: string;
  create(): Promise<Fixture>;
}

const EXPECTED_TABLES = [
  'api_keys',
  'contact_messages',
  'credit_ledger',
  'invitation_redemptions',
  'invitations',
  'login_codes',
  'login_guesses',
  'media',
  'payments',
  'schema_version',
  'sessions',
  'stripe_events',
  'tasks',
  'tracking_app_keys',
  'tracking_events',
  'tracking_messages',
  'tracking_monitor',
  'upload_policies',
  'users',
  'webhook_deliveries',
  'webhook_secrets',
];

/** What this build knows: every migration's name and the latest version. */
const KNOWN_NAMES = migrations.map((m) => m.name);
const LATEST = migrations.length;
const ALL_VERSIONS = migrations.map((m) => m.version);

const tempRoot = mkdtempSync(join(tmpdir(), 'db-test-'));
afterAll(() => rmSync(tempRoot, { recursive: true, force: true }));

function handleTracker() {
  const handles: AppDatabase[] = [];
  return {
    track(app: AppDatabase): AppDatabase {
      handles.push(app);
      return app;
    },
    closeAll: () => Promise.all(handles.map((app) => app.close())).then(() => undefined),
  };
}

const sqliteFile: Target = {
  label: 'sqlite (file)',
  async create() {
    // A nested, not yet existing directory, so every test also exercises parent-directory creation.
    const url = `sqlite:${join(tempRoot, randomUUID(), 'data', 'app.db')}`;
    const handles = handleTracker();
    return {
      shared: { url, options: {} },
      open: async () => handles.track(await openDatabase(url)),
      dispose: handles.closeAll,
    };
  },
};

const sqliteMemory: Target = {
  label: 'sqlite (:memory:)',
  async create() {
    // Each in-memory connection is its own database, so "another handle" has to be the same one.
    const app = await openDatabase('sqlite::memory:');
    return { shared: null, open: async () => app, dispose: () => app.close() };
  },
};

const postgresUrl = process.env.TEST_DATABASE_URL;
const runId = randomBytes(4).toString('hex');
let adminPool: pg.Pool | undefined;

const postgres: Target = {
  label: 'postgres',
  async create() {
    if (postgresUrl === undefined) throw new Error('TEST_DATABASE_URL is not set');
    adminPool ??= new pg.Pool({ connectionString: postgresUrl, max: 2 });
    // Each test gets its own schema and every handle puts only that schema on its search_path, so tests
    // (and parallel runs) never see each other's tables; dropping the schema removes everything.
    const schema = `t_${runId}_${randomBytes(4).toString('hex')}`;
    await adminPool.query(`create schema ${schema}`);
    const handles = handleTracker();
    const options = { searchPath: schema };
    return {
      shared: { url: postgresUrl, options },
      open: async () => handles.track(await openDatabase(postgresUrl, options)),
      async dispose() {
        try {
          await handles.closeAll();
        } finally {
          await adminPool?.query(`drop schema if exists ${schema} cascade`);
        }
      },
    };
  },
};
afterAll(async () => {
  await adminPool?.end();
});

const targets: Target[] = [sqliteFile, sqliteMemory, ...(postgresUrl ? [postgres] : [])];
const engines = [...new Set(targets.map((t) => t.label.split(' ')[0]))];
console.log(`[db tests] engines: ${engines.join(', ')}`);

// Kysely's introspection lists every schema on PostgreSQL; only the test's own schema matters here.
async function tableNames(app: AppDatabase): Promise<string[]> {
  const query =
    app.engine === 'postgres'
      ? sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`
      : sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`;
  const { rows } = await query.execute(app.db);
  return rows.map((r) => r.name).sort();
}

async function indexNames(app: AppDatabase): Promise<string[]> {
  const query =
    app.engine === 'postgres'
      ? sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()`
      : sql<{ name: string }>`select name from sqlite_master where type = 'index'`;
  const { rows } = await query.execute(app.db);
  return rows.map((r) => r.name);
}

async function versionRows(app: AppDatabase): Promise<number[]> {
  const rows = await app.db.selectFrom('schema_version').select('version').orderBy('version').execute();
  return rows.map((r) => r.version);
}

function newUser(id: string, email: string | null) {
  const now = Date.now();
  return { id, email, created_at: now, updated_at: now };
}

/**
 * Runs migrateToLatest in a separate Node process, as a second server starting at the same time would.
 * A separate process is needed for SQLite: better-sqlite3 waits for a lock synchronously, so two handles
 * in one process would block the very event loop that has to release the lock.
 */
async function migrateInChildProcess(url: string, options: OpenDatabaseOptions): Promise<MigrationResult> {
  const script = `
    import { migrateToLatest, openDatabase } from ${JSON.stringify(new URL('./index.ts', import.meta.url).href)};
    import { migrationsWithSlowOne } from ${JSON.stringify(new URL('./test-support/slow-migration.ts', import.meta.url).href)};
    const app = await openDatabase(process.env.DB_URL, JSON.parse(process.env.DB_OPTIONS));
    try {
      const result = await migrateToLatest(app, migrationsWithSlowOne);
      process.stdout.write(JSON.stringify(result));
    } finally {
      await app.close();
    }`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, DB_URL: url, DB_OPTIONS: JSON.stringify(options) },
  });
  return JSON.parse(stdout) as MigrationResult;
}

describe.each(targets)('database on $label', (target) => {
  let fixture: Fixture;
  beforeEach(async () => {
    fixture = await target.create();
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('applies the migrations to a fresh database and creates every table and index', async () => {
    const app = await fixture.open();
    expect(await tableNames(app)).toEqual([]);

    const result = await migrateToLatest(app);

    expect(result).toEqual({ applied: KNOWN_NAMES, version: LATEST });
    expect(await tableNames(app)).toEqual(EXPECTED_TABLES);
    expect(await indexNames(app)).toEqual(
      expect.arrayContaining(['sessions_user_id_idx', 'login_codes_email_idx', 'credit_ledger_user_id_id_idx']),
    );
    expect(await versionRows(app)).toEqual(ALL_VERSIONS);
  });

  it('applies nothing when run again, also from a new connection', async () => {
    const first = await fixture.open();
    await migrateToLatest(first);

    expect(await migrateToLatest(first)).toEqual({ applied: [], version: LATEST });
    const second = await fixture.open();
    expect(await migrateToLatest(second)).toEqual({ applied: [], version: LATEST });
    expect(await versionRows(second)).toEqual(ALL_VERSIONS);
  });

  it('refuses a database whose schema is newer than this build knows', async () => {
    const app = await fixture.open();
    await migrateToLatest(app);
    const future = LATEST + 3;
    await app.db.insertInto('schema_version').values({ version: future, name: 'future', applied_at: Date.now() }).execute();

    const refusal = migrateToLatest(app);

    await expect(refusal).rejects.toBeInstanceOf(SchemaTooNewError);
    await expect(refusal).rejects.toThrow(`database schema is at version ${future} but this build knows up to ${LATEST}; upgrade the server`);
    await expect(refusal).rejects.toMatchObject({ databaseVersion: future, knownVersion: LATEST });
  });

  it('refuses a newer database before changing anything in it', async () => {
    const app = await fixture.open();
    // An empty list only creates the version table, standing in for a database made by a future build.
    expect(await migrateToLatest(app, [])).toEqual({ applied: [], version: 0 });
    await app.db.insertInto('schema_version').values({ version: LATEST + 1, name: 'future', applied_at: Date.now() }).execute();

    await expect(migrateToLatest(app)).rejects.toBeInstanceOf(SchemaTooNewError);
    expect(await tableNames(app)).toEqual(['schema_version']);
  });

  it('runs each migration in its own transaction: a failing one leaves no trace, earlier ones stay', async () => {
    const app = await fixture.open();
    const broken: Migration = {
      version: migrations.length + 1,
      name: '999_broken',
      async up(db) {
        await db.schema.createTable('half_done').addColumn('id', 'integer').execute();
        throw new Error('boom');
      },
    };

    await expect(migrateToLatest(app, [...migrations, broken])).rejects.toThrow(
      'migration 999_broken failed and was rolled back: boom',
    );

    expect(await tableNames(app)).toEqual(EXPECTED_TABLES);
    expect(await versionRows(app)).toEqual(ALL_VERSIONS);
  });

  it('applies each migration exactly once when two servers migrate at the same time', { timeout: 30_000 }, async () => {
    const app = await fixture.open();
    const { shared } = fixture;
    // An in-memory database lives in one process only; there, two concurrent calls on its handle stand in.
    const runs = shared
      ? [migrateInChildProcess(shared.url, shared.options), migrateInChildProcess(shared.url, shared.options)]
      : [migrateToLatest(app, migrationsWithSlowOne), migrateToLatest(app, migrationsWithSlowOne)];

    const results = await Promise.all(runs);

    expect(results.flatMap((r) => r.applied).sort()).toEqual([...KNOWN_NAMES, 'slow'].sort());
    expect(results.map((r) => r.version)).toEqual([LATEST + 1, LATEST + 1]);
    expect(await versionRows(app)).toEqual([...ALL_VERSIONS, LATEST + 1]);
    expect(await tableNames(app)).toEqual([...EXPECTED_TABLES, 'slow_table'].sort());
  });

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
    });

    const inserted = await app.db
      .insertInto('credit_ledger')
      .values([
        { user_id: 'u_round', delta: 500, balance_after: 500, reason: 'invitation', reference: 'WELCOME', created_at: now },
        { user_id: 'u_round', delta: -2, balance_after: 498, reason: 'image', created_at: now + 5 },
      ])
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
    expect(ledger).toEqual([
      { id: inserted[0]?.id, user_id: 'u_round', delta: 500, balance_after: 500, reason: 'invitation', reference: 'WELCOME', created_at: now },
      { id: inserted[1]?.id, user_id: 'u_round', delta: -2, balance_after: 498, reason: 'image', reference: null, created_at: now + 5 },
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

    await app.db.insertInto('users').values([newUser('u_3', null), newUser('u_4', null)]).execute();
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
    await app.db.insertInto('users').values({ ...newUser('u_tx', null), credits: 100 }).execute();
    const spend = async (trx: typeof app.db, delta: number) => {
      await trx.updateTable('users').set({ credits: 100 + delta }).where('id', '=', 'u_tx').execute();
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

    const afterRollback = await app.db.selectFrom('users').select('credits').where('id', '=', 'u_tx').executeTakeFirstOrThrow();
    expect(afterRollback.credits).toBe(100);
    expect(await app.db.selectFrom('credit_ledger').selectAll().execute()).toEqual([]);

    await app.db.transaction().execute((trx) => spend(trx, -3));
    const afterCommit = await app.db.selectFrom('users').select('credits').where('id', '=', 'u_tx').executeTakeFirstOrThrow();
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
      const pragma = async (name: string) => (await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(app.db)).rows;
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

describe('migrateToLatest', () => {
  it('rejects a migration list whose versions are not 1, 2, 3… in order', async () => {
    const app = await openDatabase('sqlite::memory:');
    try {
      const first = migrations[0]!;
      const skipped: Migration = { version: 3, name: '003_skipped', up: async () => {} };
      await expect(migrateToLatest(app, [first, skipped])).rejects.toThrow(/out of order.*003_skipped/);
      expect(await tableNames(app)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
