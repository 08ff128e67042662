// Test-only: several app instances built on one fresh PostgreSQL schema, as separate servers sharing a database would
// be.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createApp } from '../app';
import { loadConfig, type Config } from '../config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import { createLogger } from '../log';
import { createTaskSystem } from '../tasks';
import { postJson as postJsonTo } from './post-json';
import { skipUnlessRequired } from './required-services';

export const INSTANCES_TEST_SECRET = 'instances-test-secret-instances-test-0123';

/**
 * Why PostgreSQL tests cannot run here (printed and used as the skip reason), or null when TEST_DATABASE_URL answers.
 * In CI (REQUIRE_TEST_SERVICES) a missing server throws instead: database tests never skip there.
 */
export async function postgresSkipReason(url = process.env.TEST_DATABASE_URL): Promise<string | null> {
  return skipUnlessRequired(await postgresProblem(url));
}

async function postgresProblem(url: string | undefined): Promise<string | null> {
  if (!url) return 'TEST_DATABASE_URL is not set';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return null;
  } catch (error) {
    return `PostgreSQL at TEST_DATABASE_URL does not answer (${error instanceof Error ? error.message : String(error)})`;
  }
}

export interface Instance {
  app: ReturnType<typeof createApp>;
  database: AppDatabase;
  config: Config;
}

export interface Instances {
  list: Instance[];
  close(): Promise<void>;
}

/**
 * `count` apps on one new schema of TEST_DATABASE_URL, each with its own connection pool and the same secrets
 * (SECRET_KEY and whatever `env` adds); the schema is migrated once and dropped by close().
 */
export async function appInstances(count: number, env: Record<string, string> = {}): Promise<Instances> {
  const url = process.env.TEST_DATABASE_URL!;
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  const schema = `inst_${randomBytes(5).toString('hex')}`;
  await admin.query(`create schema ${schema}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'instances-test-'));
  const list: Instance[] = [];
  for (let i = 0; i < count; i++) {
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      SITE_DIR: './dist',
      DATA_DIR: dataDir,
      SECRET_KEY: INSTANCES_TEST_SECRET,
      PUBLIC_URL: 'http://localhost:8787',
      DATABASE_URL: url,
      ...env,
    });
    const database = await openDatabase(url, { searchPath: schema });
    if (i === 0) await migrateToLatest(database);
    const log = createLogger(config.logLevel);
    const tasks = createTaskSystem({ config, database, log });
    list.push({ app: createApp({ config, database, log, tasks }), database, config });
  }
  return {
    list,
    async close() {
      try {
        for (const instance of list) await instance.database.close();
      } finally {
        await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** POSTs JSON to one instance and answers the status with the parsed body. */
export const postJson = <T = { code: number; msg: string; data: Record<string, unknown> | null }>(
  instance: Instance,
  route: string,
  body: unknown,
  headers: Record<string, string> = {},
) => postJsonTo<T>(instance.app, route, body, headers);
