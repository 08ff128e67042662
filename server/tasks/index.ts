// Public surface of the tasks area: builds the task service, queue, media, engines and webhooks; starts and stops
// background work.
import type { AppDatabase } from '../db';
import type { Config } from '../config';
import { lazyServerKeys } from '../accounts';
import { createEngineRegistry, type Engine } from '../engines';
import type { Logger } from '../log';
import { configuredMediaStore, createMediaService, type MediaStore } from '../media';
import { ENGINE_DEFAULTS } from '../../src/lib/product-rules';
import { providerEngines } from '../engines/providers';
import { routeFeatures } from '../engines/routing';
import { leasedEngineSlots } from './engine-slots';
import { taskHandBack } from './hand-back';
import {
  countFinished,
  countSubmitted,
  instrumentEngines,
  instrumentRuns,
  recordTraceContext,
} from '../telemetry/tasks';
import { inputReader } from './input-media';
import { pgBossQueue } from './pg-boss-queue';
import { choreList, choreTimer, scheduleChores, type RunningChores } from './chores';
import { inProcessQueue, type TaskQueue } from './queue';
import { createTaskService } from './service';
import { recordTaskCosts } from './provider-costs';
import { webhookDispatcher, webhookRecorder } from './webhooks';
import { liveStatus } from './status-publishing';

export type { TaskQueue } from './queue';
export type { TaskService, SubmitRequest } from './service';
export { LEDGER_REASONS } from './settle';
export { signWebhook, webhookSecret, callbackUrlProblem } from './webhooks';
export { taskView, dreamView, mediaByTask } from './views';
export { listTasks, rerunTask, type HistoryQuery } from './history';
export { checkKeyCaps, keyCapViews, setKeyCaps } from './key-caps';
export { listWebhookAttempts, redeliverWebhook } from './webhook-log';
export { usagePages, usageCsv, usageJson, textStream } from './usage-export';
export { createShareLinks, type ShareLinks } from './share-links';
export { usageReport } from './usage';
export { isFinished, type TaskWatch } from './status-watch';
export type { LiveStatus } from './status-publishing';

export interface TaskSystemOptions {
  config: Config;
  database: AppDatabase;
  log: Logger;
  /** Engines beyond the built-in ones, by name (a deployment's provider adapters, or a test's). */
  extraEngines?: Engine[];
  /** Another media store (e.g. S3); the local directory under DATA_DIR/media by default. */
  store?: MediaStore;
  /** Another queue built on the task service (e.g. distributed); in-process workers by default. */
  queue?: (tasks: ReturnType<typeof createTaskService>) => TaskQueue;
}

/** Everything the task routes need. Building it starts nothing: call start() (main.ts) to run workers and jobs. */
export function createTaskSystem(o: TaskSystemOptions) {
  const { config, log } = o;
  const db = o.database.db;
  const keys = lazyServerKeys(config);
  const providers = providerEngines(config.tasks.providers, log);
  const routes = routeFeatures(config.tasks.engines, config.tasks.enginesGiven, providers);
  const local = createEngineRegistry(routes, [...providers, ...(o.extraEngines ?? [])], {
    concurrency: config.tasks.engineConcurrency,
    timeoutsMs: config.tasks.engineTimeoutsMs,
  });
  // With QUEUE=pg-boss every engine attempt, fallbacks included, also holds a cluster-wide slot (docs/scaling.md
  // "Job queue"); the in-process semaphore stays in front as the cheap local check.
  const runsJobs = config.queue.kind === 'pg-boss' && !o.queue && config.queue.role !== 'api';
  const clusterSlots = runsJobs ? leasedEngineSlots({ db, log }) : undefined;
  // Every engine call is timed, counted and traced (server/telemetry/tasks.ts). Live status
  // (server/tasks/status-publishing.ts): every status and progress write tells the streams of every API instance.
  const live = liveStatus({
    db,
    engine: o.database.engine,
    databaseUrl: config.database.listenUrl,
    redis: config.redis,
    log,
  });
  const instrumented: typeof local = instrumentEngines(
    clusterSlots
      ? {
          ...local,
          async acquire(name, signal) {
            const releaseLocal = await local.acquire(name, signal);
            try {
              const releaseCluster = await clusterSlots.acquire(
                name,
                config.tasks.engineConcurrency[name] ?? ENGINE_DEFAULTS.concurrency,
                signal,
              );
              return () => {
                releaseCluster();
                releaseLocal();
              };
            } catch (error) {
              releaseLocal();
              throw error;
            }
          },
        }
      : local,
  );
  const engines = live.engines(instrumented);
  const media = createMediaService({
    db,
    store: o.store ?? configuredMediaStore(config, log),
    publicUrl: config.publicUrl,
    retentionMs: config.tasks.retentionMs,
    secret: () => keys().hashing,
  });
  // The service tells the queue about submits, and the queue is built on the service: a holder breaks the cycle.
  const holder: { queue?: TaskQueue } = {};
  const outbound = { allowPrivate: config.tasks.outboundAllowPrivate };
  const readInput = inputReader({ media, publicUrl: config.publicUrl, outbound });
  const recordWebhook = webhookRecorder(media);
  const service = instrumentRuns(
    createTaskService({
      db,
      engines,
      media,
      config: config.tasks,
      log,
      publicUrl: config.publicUrl,
      readInput,
      onSubmitted: () => holder.queue?.notify(),
      onStored: async (trx, task) => {
        await recordTraceContext(trx, task);
        await holder.queue?.enqueue?.(trx, task);
        await live.publish(trx, task);
        countSubmitted(task);
      },
      onFinished: async (trx, task, costs) => {
        await recordWebhook(trx, task);
        await recordTaskCosts(trx, task, costs, log);
        await live.publish(trx, task);
        countFinished(task);
      },
    }),
  );
  const tasks = live.runs(service);
  // ROLE=api takes requests only: its queue sends jobs and runs none, and no background work starts here.
  const runWorkers = config.queue.role !== 'api';
  const { workers, pollMs, runTimeoutMs } = config.tasks;
  const handBack = live.handBack(taskHandBack(db));
  const queue = (holder.queue = o.queue
    ? o.queue(tasks)
    : config.queue.kind === 'pg-boss'
      ? pgBossQueue({
          tasks,
          log,
          connectionString: config.databaseUrl,
          poolMax: config.database.queuePoolMax,
          listenUrl: config.database.listenUrl,
          schema: config.queue.schema,
          runWorkers,
          workers,
          pollMs,
          runTimeoutMs,
          leaseS: config.queue.leaseS,
          checkS: config.queue.checkS,
          retryDelayS: config.queue.retryDelayS,
          engineConcurrency: config.tasks.engineConcurrency,
          handBack,
        })
      : inProcessQueue({ tasks, log, workers, pollMs, runTimeoutMs, runWorkers, handBack }));
  const webhooks = webhookDispatcher({
    db,
    log,
    retryBaseMs: config.tasks.webhookRetryBaseMs,
    maxAttempts: config.tasks.webhookMaxAttempts,
    outbound,
  });
  let chores: RunningChores | undefined;

  /** One retention pass: tasks note when their results expired, then the expired files and rows go. */
  async function cleanup(now = Date.now()): Promise<number> {
    await tasks.recordExpiredOutputs(now, config.tasks.retentionMs);
    return media.cleanup(now);
  }

  return {
    db,
    config,
    engines,
    media,
    tasks,
    queue: queue,
    webhooks,
    cleanup,
    /** The status feed and this process's open streams (server/routes/task-events.ts). */
    live,
    /** Starts workers (after recovering stranded tasks), webhook delivery and the retention chores. */
    async start() {
      await queue.start();
      if (!runWorkers) return;
      webhooks.start();
      // Media and tracking retention: pg-boss schedules run once per cluster, else a timer here
      // (server/tasks/chores.ts).
      const list = choreList({
        database: o.database,
        cleanupMedia: () => cleanup(),
        trackingRetentionDays: config.tracking.retentionDays,
      });
      chores =
        'boss' in queue
          ? await scheduleChores((queue as ReturnType<typeof pgBossQueue>).boss, list, log)
          : choreTimer(list, log);
    },
    /** Stops background work; with a drain deadline, tasks still running then are handed back to the queue. */
    async stop(drainMs?: number) {
      await chores?.stop();
      await queue.stop(drainMs);
      // Cancels of provider jobs still on their way (a task canceled or failed just before the stop) are sent first.
      await tasks.providerJobsSettled();
      await webhooks.stop();
      await clusterSlots?.close();
      await live.close();
    },
  };
}

export type TaskSystem = ReturnType<typeof createTaskSystem>;
