// Starts the API host: configuration, database and migrations, listen, and a graceful shutdown.
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db';
import { prepareWorkRoot, tiedSpawnMethod } from './tools';
import { createLogger } from './log';
import { PRIVATE_UMASK } from './private-files';
import { createTaskSystem } from './tasks';
import { healthRoutes } from './routes/health';
import { openRateLimitStores } from './http/redis-rate-limit';

async function main() {
  // Everything written from here on (database, WAL, secret, media, ffmpeg outputs) is readable by our user only.
  process.umask(PRIVATE_UMASK);
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  // Work files of a server killed mid-render are left behind: DATA_DIR/tmp is emptied before any engine runs.
  await prepareWorkRoot(path.join(config.dataDir, 'tmp'));
  if (process.platform === 'linux' && tiedSpawnMethod() === 'plain') log.warn('setpriv (util-linux) not found: ffmpeg children may outlive a killed server');
  const database = await openDatabase(config.databaseUrl);
  const migration = await migrateToLatest(database);
  log.info('database ready', { engine: database.engine, version: migration.version, applied: migration.applied });

  // Tasks: workers, webhook delivery and media cleanup run only here, never in tests that build the app.
  const tasks = createTaskSystem({ config, database, log });
  // Request budgets: in memory, or with REDIS_URL in Redis over one connection shared by every limiter.
  const rateLimits = openRateLimitStores(config.redis, log);
  // ROLE=worker runs tasks and answers only /healthz; ROLE=api serves requests and runs no tasks (docs/scaling.md).
  const { role } = config.queue;
  const app = role === 'worker' ? new Hono().route('/healthz', healthRoutes({ config, database, log, tasks })) : createApp({ config, database, log, tasks, rateLimits });
  await tasks.start();
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    log.info('listening', { port: info.port, role, queue: config.queue.kind });
    const base = config.port === 0 ? `http://localhost:${info.port}` : config.publicUrl;
    process.stdout.write(role === 'worker' ? `\n  DreamAPI worker is running; health at ${base}/healthz\n\n` : `\n  DreamAPI is running at ${base}/playground\n\n`);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    // Stop accepting connections, let in-flight requests finish, then close the database.
    const forced = setTimeout(() => {
      log.warn('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    forced.unref();
    server.close(async () => {
      await tasks.stop();
      await rateLimits.close();
      await database.close();
      log.info('stopped');
      process.exit(0);
    });
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
