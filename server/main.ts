// Starts the API host: configuration, tracing, database and migrations, listen (and the metrics port), and the graceful
// drain.
import type { Server } from 'node:http';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db';
import { prepareWorkRoot, reportFfmpeg, spawnLimitMethod, tiedSpawnMethod } from './tools';
import { createLogger } from './log';
import { createRequestLog } from './accounts/request-log';
import { PRIVATE_UMASK } from './private-files';
import { createTaskSystem } from './tasks';
import { healthRoutes, readinessRoutes } from './routes/health';
import { openRateLimitStores } from './http/redis-rate-limit';
import { drain } from './lifecycle/drain';
import { createLifecycle } from './lifecycle/state';
import { startWorkPause } from './lifecycle/pause';
import { readinessChecks } from './lifecycle/readiness';
import { metricsApp, metricsHandler } from './metrics';
import { startTracing, stopTracing } from './telemetry/tracing';
import { METRICS, OUTAGES } from '../src/lib/product-rules';

async function main() {
  // Everything written from here on (database, WAL, secret, media, ffmpeg outputs) is readable by our user only.
  process.umask(PRIVATE_UMASK);
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  // Before anything that makes spans: with no OTLP endpoint this loads nothing.
  await startTracing(config.ops.tracing, log);
  // Work files of a server killed mid-render are left behind: DATA_DIR/tmp is emptied before any engine runs.
  await prepareWorkRoot(path.join(config.dataDir, 'tmp'));
  if (process.platform === 'linux' && tiedSpawnMethod() === 'plain')
    log.warn('setpriv (util-linux) not found: ffmpeg children may outlive a killed server');
  if (process.platform === 'linux' && spawnLimitMethod() === 'none')
    log.warn('prlimit (util-linux) not found: ffmpeg and ffprobe run without CPU and memory limits');
  // Which ffmpeg/ffprobe parse outside files, and their versions; one missing or too old is a clear error here.
  reportFfmpeg(log);
  // DATABASE_POOL_MAX, by role by default (docs/scaling.md "Connections").
  const database = await openDatabase(config.databaseUrl, {
    maxConnections: config.database.poolMax,
    connectTimeoutMs: OUTAGES.databaseConnectTimeoutMs,
    keepAliveDelayMs: OUTAGES.databaseKeepAliveDelayMs,
  });
  const migration = await migrateToLatest(database);
  log.info('database ready', { engine: database.engine, version: migration.version, applied: migration.applied });

  // Tasks: workers, webhook delivery and media cleanup run only here, never in tests that build the app.
  const tasks = createTaskSystem({ config, database, log });
  // Request budgets: in memory, or with REDIS_URL in Redis over one connection shared by every limiter.
  const rateLimits = openRateLimitStores(config.redis, log);
  // ROLE=worker runs tasks and answers only /healthz; ROLE=api serves requests and runs no tasks (docs/scaling.md).
  const { role } = config.queue;
  const lifecycle = createLifecycle();
  const requestLog = createRequestLog(database.db, log);
  const deps = { config, database, log, tasks, rateLimits, lifecycle, requestLog };
  const { metrics } = config.ops;
  const app = role === 'worker' ? workerApp(deps) : createApp(deps);
  await tasks.start();
  // A process that runs jobs stops taking them while its database or media store is away, and says why in /readyz.
  const { queue } = tasks;
  const workPause =
    role !== 'api' && queue.pause && queue.resume
      ? startWorkPause({
          lifecycle,
          log,
          queue: { pause: async () => queue.pause?.(), resume: async () => queue.resume?.() },
          checks: readinessChecks({ config: { ...config, redis: null }, database, queue }),
        })
      : null;
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    log.info('listening', { port: info.port, role, queue: config.queue.kind });
    const base = config.port === 0 ? `http://localhost:${info.port}` : config.publicUrl;
    process.stdout.write(
      role === 'worker'
        ? `\n  DreamAPI worker is running; health at ${base}/healthz\n\n`
        : `\n  DreamAPI is running at ${base}/playground\n\n`,
    );
  });
  // METRICS_PORT: /metrics alone on its own listener, kept open through the drain so the last figures can be scraped.
  const metricsServer =
    metrics.port === null
      ? null
      : serve({
          fetch: metricsApp({ db: database.db, log, token: metrics.token }).fetch,
          port: metrics.port,
          hostname: metrics.host,
        });
  if (metrics.port === null && metrics.token === null)
    log.info('metrics off: set METRICS_TOKEN or METRICS_PORT to serve /metrics (docs/operations.md)');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    const { drainDelayMs, drainTimeoutMs } = config.ops;
    // The drain has its own deadline; SHUTDOWN_TIMEOUT_MS more is what closing everything after it may take.
    const forced = setTimeout(
      () => {
        log.warn('shutdown timed out; exiting');
        process.exit(1);
      },
      drainDelayMs + drainTimeoutMs + config.shutdownTimeoutMs,
    );
    forced.unref();
    const closers = [
      { name: 'work pause', close: async () => workPause?.stop() },
      { name: 'request log', close: () => requestLog.flush() },
      { name: 'shared counters', close: () => rateLimits.close() },
      { name: 'tracing', close: stopTracing },
      {
        name: 'metrics listener',
        close: () => new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve())),
      },
    ];
    drain({
      lifecycle,
      log,
      server: server as Server,
      streams: tasks.live.streams,
      tasks,
      closers,
      database,
      drainDelayMs,
      drainTimeoutMs,
    }).then(
      () => {
        log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log.error('drain failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** ROLE=worker answers only health, readiness and (with METRICS_TOKEN) metrics on PORT (docs/scaling.md). */
function workerApp(deps: Parameters<typeof healthRoutes>[0]) {
  const app = new Hono().route('/healthz', healthRoutes(deps)).route('/readyz', readinessRoutes(deps));
  const token = deps.config.ops.metrics.token;
  if (token) app.get(METRICS.path, metricsHandler({ db: deps.database.db, log: deps.log, token }));
  return app;
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
