// Builds the real app on a fresh in-memory SQLite database for route tests (requests go through app.request()).
import { createApp } from '../app';
import { loadConfig, type Config } from '../config';
import type { Mailer } from '../accounts';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import { createLogger } from '../log';
import { createTaskSystem, type TaskSystem } from '../tasks';
import { openRateLimitStores } from '../http/redis-rate-limit';
import { OUTAGES } from '../../src/lib/product-rules';

export interface TestApp {
  app: ReturnType<typeof createApp>;
  database: AppDatabase;
  config: Config;
  /** Built but never started: tasks may be submitted, no worker runs them (server/test-support/tasks.ts runs them). */
  tasks: TaskSystem;
  close(): Promise<void>;
}

/**
 * Route and task tests give each user the balance they need and check holds, settles and refunds on the offline
 * engines, so accounts start at 0 and those engines are priced in full; the tests of the sign-up grant and of free
 * no-model runs (server/routes/features.test.ts, server/routes/signup-grant.test.ts) set these themselves, and
 * server/config/config.test.ts checks the production defaults.
 */
export const BILLING_TEST_ENV = { SIGNUP_CREDITS: '0', NO_MODEL_PRICE: 'full' } as const;

/** A fixed server secret, so no test writes DATA_DIR/secret.key into the working tree. */
export const ROUTE_TEST_SECRET = 'route-test-secret-route-test-secret-0123';

/**
 * Environment overrides are applied on top of quiet test defaults; the site folder may not exist. A `mailer` replaces
 * SMTP.
 */
export async function createTestApp(env: Record<string, string> = {}, o: { mailer?: Mailer } = {}): Promise<TestApp> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'sqlite::memory:',
    SITE_DIR: './dist',
    SECRET_KEY: ROUTE_TEST_SECRET,
    ...BILLING_TEST_ENV,
    ...env,
  });
  // Bounded as main.ts bounds it: a database that stops answering is an outage (503), not a hang.
  const database = await openDatabase(config.databaseUrl, {
    connectTimeoutMs: OUTAGES.databaseConnectTimeoutMs,
    keepAliveDelayMs: OUTAGES.databaseKeepAliveDelayMs,
  });
  await migrateToLatest(database);
  const log = createLogger(config.logLevel);
  const tasks = createTaskSystem({ config, database, log });
  const rateLimits = openRateLimitStores(config.redis, log);
  const app = createApp({ config, database, log, mailer: o.mailer, tasks, rateLimits });
  return {
    app,
    database,
    config,
    tasks,
    async close() {
      await rateLimits.close();
      await database.close();
    },
  };
}
