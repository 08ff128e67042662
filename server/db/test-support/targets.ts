// Test-only: the databases the db tests run on (SQLite file and in-memory, PostgreSQL when TEST_DATABASE_URL is set)
// and probes of their schema.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { migrations, openDatabase } from '../index.ts';
import type { AppDatabase, OpenDatabaseOptions } from '../index.ts';

/** An empty database; open() returns a handle to it, a new one each call where the engine allows. */
export interface Fixture {
  /** How another process reaches the same database; null when only this process can (SQLite in memory). */
  shared: { url: string; options: OpenDatabaseOptions } | null;
  open(): Promise<AppDatabase>;
  dispose(): Promise<void>;
}

export interface Target {
  label: string;
  create(): Promise<Fixture>;
}

export const EXPECTED_TABLES = [
  'api_keys',
  'api_requests',
  'audit_log',
  'contact_messages',
  'credit_ledger',
  'engine_slots',
  'invitation_redemptions',
  'invitations',
  'login_codes',
  'login_guesses',
  'media',
  'payments',
  'provider_jobs',
  'retired_api_keys',
  'schema_version',
  'sessions',
  'share_links',
  'stripe_events',
  'task_costs',
  'task_provider_costs',
  'tasks',
  'tracking_app_keys',
  'tracking_events',
  'tracking_messages',
  'tracking_monitor',
  'upload_policies',
  'users',
  'webhook_attempts',
  'webhook_deliveries',
  'webhook_secrets',
];

/** What this build knows: every migration's name and the latest version. */
export const KNOWN_NAMES = migrations.map((m) => m.name);
export const LATEST = migrations.length;
export const ALL_VERSIONS = migrations.map((m) => m.version);

/** Where SQLite files of the calling test file go; removed after it by databaseTargets(). */
export const tempRoot = mkdtempSync(join(tmpdir(), 'db-test-'));

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
/**
 * The engines to test on; registers their clean-up (temporary files, the PostgreSQL admin pool) on the calling test
 * file.
 */
export function databaseTargets(): Target[] {
  afterAll(async () => {
    rmSync(tempRoot, { recursive: true, force: true });
    await adminPool?.end();
  });
  const targets: Target[] = [sqliteFile, sqliteMemory, ...(postgresUrl ? [postgres] : [])];
  const engines = [...new Set(targets.map((t) => t.label.split(' ')[0]))];
  console.log(`[db tests] engines: ${engines.join(', ')}`);
  return targets;
}

/** A fresh database of `target` for each test of the calling block, disposed after it; reads the current one. */
export function databaseEachTest(target: Target): Pick<Fixture, 'open' | 'shared'> {
  let fixture: Fixture | undefined;
  beforeEach(async () => {
    fixture = await target.create();
  });
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });
  return {
    get shared() {
      return fixture!.shared;
    },
    open: () => fixture!.open(),
  };
}

// Kysely's introspection lists every schema on PostgreSQL; only the test's own schema matters here.
export async function tableNames(app: AppDatabase): Promise<string[]> {
  const query =
    app.engine === 'postgres'
      ? // Tables as the schema names them: a partitioned table once, not each of its partitions (migration 016).
        sql<{ name: string }>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition`
      : sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`;
  const { rows } = await query.execute(app.db);
  return rows.map((r) => r.name).sort();
}

export async function indexNames(app: AppDatabase): Promise<string[]> {
  const query =
    app.engine === 'postgres'
      ? sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()`
      : sql<{ name: string }>`select name from sqlite_master where type = 'index'`;
  const { rows } = await query.execute(app.db);
  return rows.map((r) => r.name);
}

export async function versionRows(app: AppDatabase): Promise<number[]> {
  const rows = await app.db.selectFrom('schema_version').select('version').orderBy('version').execute();
  return rows.map((r) => r.version);
}

export function newUser(id: string, email: string | null) {
  const now = Date.now();
  return { id, email, created_at: now, updated_at: now };
}
