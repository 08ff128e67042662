// Test-only: an empty database per test on SQLite in memory and, with TEST_DATABASE_URL, in a fresh PostgreSQL schema.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';
import { openDatabase, type AppDatabase } from '../index.ts';

export interface DatabaseEngine {
  label: 'sqlite' | 'postgres';
  /** A new, unmigrated database; dispose() closes it (and drops its PostgreSQL schema). */
  open(): Promise<{ database: AppDatabase; dispose(): Promise<void> }>;
}

/** The engines a database test runs on; `schemaPrefix` names the PostgreSQL schemas so a leftover shows whose it is. */
export function databaseEngines(schemaPrefix: string, options: { maxConnections?: number } = {}): DatabaseEngine[] {
  const pgUrl = process.env.TEST_DATABASE_URL;
  const sqlite: DatabaseEngine = {
    label: 'sqlite',
    async open() {
      const database = await openDatabase('sqlite::memory:');
      return { database, dispose: () => database.close() };
    },
  };
  if (!pgUrl) return [sqlite];
  let admin: pg.Pool | undefined;
  afterAll(() => admin?.end());
  const postgres: DatabaseEngine = {
    label: 'postgres',
    async open() {
      admin ??= new pg.Pool({ connectionString: pgUrl, max: 2 });
      const schema = `${schemaPrefix}_${randomBytes(5).toString('hex')}`;
      await admin.query(`create schema ${schema}`);
      const database = await openDatabase(pgUrl, {
        searchPath: schema,
        ...(options.maxConnections ? { maxConnections: options.maxConnections } : {}),
      });
      return {
        database,
        async dispose() {
          await database.close();
          await admin!.query(`drop schema ${schema} cascade`);
        },
      };
    },
  };
  return [sqlite, postgres];
}

/** A new, empty database on the `adminUrl` server; drop() removes it even while connections remain. */
export async function freshPostgresDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
