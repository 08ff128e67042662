// Tests of migrateToLatest on SQLite (file and in-memory) and, when TEST_DATABASE_URL is set, PostgreSQL: applying,
// refusing, rolling back, racing.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, migrations, openDatabase, SchemaTooNewError } from './index.ts';
import type { Migration, MigrationResult, OpenDatabaseOptions } from './index.ts';
import { migrationsWithSlowOne } from './test-support/slow-migration.ts';
import {
  ALL_VERSIONS,
  databaseTargets,
  EXPECTED_TABLES,
  indexNames,
  KNOWN_NAMES,
  LATEST,
  tableNames,
  versionRows,
  databaseEachTest,
} from './test-support/targets.ts';

const targets = databaseTargets();

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
  const fixture = databaseEachTest(target);

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
    await app.db
      .insertInto('schema_version')
      .values({ version: future, name: 'future', applied_at: Date.now() })
      .execute();

    const refusal = migrateToLatest(app);

    await expect(refusal).rejects.toBeInstanceOf(SchemaTooNewError);
    await expect(refusal).rejects.toThrow(
      `database schema is at version ${future} but this build knows up to ${LATEST}; upgrade the server`,
    );
    await expect(refusal).rejects.toMatchObject({ databaseVersion: future, knownVersion: LATEST });
  });

  it('refuses a newer database before changing anything in it', async () => {
    const app = await fixture.open();
    // An empty list only creates the version table, standing in for a database made by a future build.
    expect(await migrateToLatest(app, [])).toEqual({ applied: [], version: 0 });
    await app.db
      .insertInto('schema_version')
      .values({ version: LATEST + 1, name: 'future', applied_at: Date.now() })
      .execute();

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
