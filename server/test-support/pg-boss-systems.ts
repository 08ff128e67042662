// Test-only: task systems of the api and worker roles sharing one fresh PostgreSQL database with QUEUE=pg-boss; the
// database is made and migrated before the calling describe block and every system stopped and the database dropped
// after it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import { freshPostgresDatabase } from '../db/test-support/engines';
import type { Engine } from '../engines';
import { createLogger, type Logger } from '../log';
import { createTaskSystem, type TaskSystem } from '../tasks';
import { TASKS_TEST_SECRET } from './tasks';

/** The job queue of the tests that build their own instances: pg-boss, a short lease, quick checks and retries. */
export const PG_BOSS_TEST_ENV = {
  QUEUE: 'pg-boss',
  QUEUE_LEASE_S: '10',
  QUEUE_CHECK_S: '1',
  QUEUE_RETRY_DELAY_S: '1',
  TASK_POLL_MS: '500',
};

export interface PgBossSystemOptions {
  /** Settings beside the shared ones (short lease and check intervals, a fast poll). */
  env?: Record<string, string>;
  log?: Logger;
  extraEngines?: Engine[];
}

/** Call inside a describe block: `adminUrl` is TEST_DATABASE_URL, `name` tells the database and folder apart. */
export function pgBossSystems(adminUrl: string, name: string) {
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  const open: { system: TaskSystem; database: AppDatabase }[] = [];

  beforeAll(async () => {
    fresh = await freshPostgresDatabase(adminUrl, name.replace(/\W/g, '_'));
    const database = await openDatabase(fresh.url);
    await migrateToLatest(database);
    await database.close();
  });
  afterAll(async () => {
    for (const { system, database } of open.splice(0).reverse()) {
      await system.stop();
      await database.close();
    }
    await fresh?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  return {
    /** The database's URL (once the describe block's beforeAll has run). */
    url: () => fresh!.url,
    /** A started task system of `role`; stopped after the describe block. */
    async start(role: 'api' | 'worker', options: PgBossSystemOptions = {}) {
      const config = loadConfig({
        LOG_LEVEL: 'silent',
        DATA_DIR: dir,
        SECRET_KEY: TASKS_TEST_SECRET,
        PUBLIC_URL: 'http://localhost:8787',
        DATABASE_URL: fresh!.url,
        ROLE: role,
        QUEUE: 'pg-boss',
        QUEUE_LEASE_S: '10',
        QUEUE_CHECK_S: '1',
        TASK_POLL_MS: '200',
        ...options.env,
      });
      const database = await openDatabase(fresh!.url);
      const log = options.log ?? createLogger('silent');
      const system = createTaskSystem({ config, database, log, extraEngines: options.extraEngines });
      await system.start();
      open.push({ system, database });
      return { system, database, config };
    },
  };
}
