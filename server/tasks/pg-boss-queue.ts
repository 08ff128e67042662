// The job queue on PostgreSQL (QUEUE=pg-boss): jobs enqueued with the task's hold, leased by heartbeat, retried with
// backoff, refunded when attempts run out; cancel and provider hooks travel by NOTIFY.
import { PgBoss, fromKysely, type Job } from 'pg-boss';
import { notifyHook } from '../engines/providers/hooks';
import type { Logger } from '../log';
import { ENGINE_DEFAULTS, OUTAGES, TASK_LIMITS, TASK_MESSAGES, TASK_QUEUE } from '../../src/lib/product-rules';
import type { TaskRow } from '../db';
import { cancelSweep } from './cancel-sweep';
import { settlesWithin, TaskHandedBack } from './hand-back';
import { listenThrough } from './pg-boss-listen';
import { queueListener } from './queue-listener';
import type { TaskQueue } from './queue';
import { TaskTimeout } from './runner';
import type { TaskService } from './service';

export interface PgBossQueueOptions {
  tasks: TaskService;
  log: Logger;
  connectionString: string;
  /** Most connections of pg-boss's pool (DATABASE_POOL_MAX, fewer in an api process); pg-boss's default when unset. */
  poolMax?: number;
  /**
   * Where LISTEN connects (DATABASE_DIRECT_URL): a session, when connectionString goes through a transaction pooler.
   */
  listenUrl?: string;
  /** pg-boss's schema (QUEUE_SCHEMA). */
  schema: string;
  /** False in the api role: jobs are sent, never worked. */
  runWorkers: boolean;
  /** Jobs this process runs at once (TASK_WORKERS). */
  workers: number;
  pollMs: number;
  runTimeoutMs: number;
  /** Seconds a job lives without a heartbeat, and how often stranded jobs are looked for (docs/scaling.md). */
  leaseS: number;
  checkS: number;
  retryDelayS: number;
  maxAttempts?: number;
  /** Per-engine caps (ENGINE_CONCURRENCY), held across every worker by pg-boss group concurrency. */
  engineConcurrency: Record<string, number>;
  /** Puts a running task back to queued for a draining stop (server/tasks/hand-back.ts); true when it was. */
  handBack?: (task: TaskRow) => Promise<boolean>;
}

interface TaskJob {
  taskId: string;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function pgBossQueue(o: PgBossQueueOptions): TaskQueue & { boss: PgBoss } {
  const maxAttempts = o.maxAttempts ?? TASK_LIMITS.maxAttempts;
  const running = new Map<string, { controller: AbortController; task: TaskRow }>();
  /** Settles when the last running job of a draining stop ends. */
  let idle: (() => void) | undefined;
  const boss = new PgBoss({
    connectionString: o.connectionString,
    ...(o.poolMax ? { max: o.poolMax } : {}),
    schema: o.schema,
    // Only workers look for jobs whose lease lapsed; an api process just sends.
    supervise: o.runWorkers,
    superviseIntervalSeconds: o.checkS,
    monitorIntervalSeconds: o.checkS,
    // Workers run pg-boss's cron pass: each chore's schedule fires once per cluster (server/tasks/chores.ts).
    schedule: o.runWorkers,
    useListenNotify: o.runWorkers,
    instanceName: o.runWorkers ? 'worker' : 'api',
  });
  boss.on('error', (error) => o.log.error('job queue error', { error: error.message }));
  if (o.runWorkers && o.listenUrl && o.listenUrl !== o.connectionString) listenThrough(boss, o.listenUrl);
  let started = false;
  /** True while fetching is paused (server/lifecycle/pause.ts): the database or the media store does not answer. */
  let paused = false;
  /** Cancels sent while the listener was away are found by reading the tasks' status (server/tasks/cancel-sweep.ts). */
  const sweep = cancelSweep({ running, read: (id) => o.tasks.byId(id), log: o.log });
  /**
   * Workers hear cancels and provider hooks on one session-pinned connection with keepalive; it reconnects when it
   * fails.
   */
  const listener = queueListener({
    connectionString: o.listenUrl ?? o.connectionString,
    log: o.log,
    channels: {
      [TASK_QUEUE.abortChannel]: (taskId) => running.get(taskId)?.controller.abort(new Error('canceled')),
      [TASK_QUEUE.hookChannel]: notifyHook,
    },
    onListening: () => void sweep.sweep(),
  });

  // NOTIFY wakes workers for new jobs only: retries and jobs taken from a dead worker are found by polling,
  // so the relaxed poll is the check interval, which keeps the takeover bound (docs/scaling.md).
  const polling = { pollingIntervalSeconds: Math.max(0.5, o.pollMs / 1000), notifyPollingIntervalSeconds: o.checkS };

  /** One fetch loop per slot; stopped by offWork (a pause or a draining stop). */
  async function fetchJobs(): Promise<void> {
    // One fetch loop per slot, each told to fetch again at once after a job: there may be more waiting, and
    // otherwise a backlog drains one job per slot per relaxed poll (measured by bench/scale-out.mjs).
    for (let slot = 0; slot < o.workers; slot++) {
      const id: string = await boss.work<TaskJob>(
        TASK_QUEUE.jobs,
        // Engine caps across all workers: a job's group is its task's engine, counted in the database.
        { ...polling, groupConcurrency: { default: ENGINE_DEFAULTS.concurrency, tiers: o.engineConcurrency } },
        async ([job]) => {
          if (!job) return;
          try {
            await handle(job);
          } finally {
            boss.notifyWorker(id);
          }
        },
      );
    }
  }

  async function publish(channel: string, payload: string): Promise<void> {
    await boss.getDb().executeSql('select pg_notify($1, $2)', [channel, payload]);
  }

  /**
   * One attempt at a task: claim it (or take it over from a dead worker), run it, and let a thrown error retry the job.
   */
  async function handle(job: Job<TaskJob>): Promise<void> {
    const { taskId } = job.data;
    const claimed = await o.tasks.claim(taskId);
    // Finished, canceled or deleted meanwhile: nothing to do, the job completes.
    if (!claimed) return;
    if (claimed.takenOver)
      o.log.info('task taken over from a stopped worker', { taskId, attempt: claimed.task.attempts });
    if (claimed.task.attempts > maxAttempts) {
      await o.tasks.fail(taskId, TASK_MESSAGES.attemptsExhausted(maxAttempts), ['running']);
      return;
    }
    const controller = new AbortController();
    running.set(taskId, { controller, task: claimed.task });
    // pg-boss aborts the job's signal when this process stops or the job's lease is given to another worker.
    const onJobAbort = () => controller.abort(new Error('the job was stopped'));
    job.signal.addEventListener('abort', onJobAbort, { once: true });
    const timer = setTimeout(() => controller.abort(new TaskTimeout('timed out')), o.runTimeoutMs);
    try {
      // Throws only when the database or media store failed: pg-boss retries the job with backoff.
      await o.tasks.run(claimed.task, controller.signal);
      // Handed back by a draining stop: failing the job makes pg-boss run it again (after retryDelay), here or
      // elsewhere.
      if (controller.signal.reason instanceof TaskHandedBack) throw controller.signal.reason;
    } finally {
      clearTimeout(timer);
      job.signal.removeEventListener('abort', onJobAbort);
      running.delete(taskId);
      if (running.size === 0) idle?.();
    }
  }

  /** A job that used all its attempts: its task is failed and refunded, once (the conditional finish). */
  async function exhausted(job: Job<TaskJob>): Promise<void> {
    if (await o.tasks.fail(job.data.taskId, TASK_MESSAGES.attemptsExhausted(maxAttempts), ['queued', 'running'])) {
      o.log.warn('task failed after its attempts ran out', { taskId: job.data.taskId, attempts: maxAttempts });
    }
  }

  return {
    boss,
    notify() {
      // Workers are woken by pg-boss's own NOTIFY on send.
    },
    abort(taskId) {
      running.get(taskId)?.controller.abort(new Error('canceled'));
      publish(TASK_QUEUE.abortChannel, taskId).catch((error: unknown) =>
        o.log.error('cancel broadcast failed', { taskId, error: message(error) }),
      );
    },
    async ready() {
      await boss.getDb().executeSql('select 1', []);
    },
    async wake(key) {
      // Every worker hears it (this one too, through its listener); the one following the job wakes.
      await publish(TASK_QUEUE.hookChannel, key);
      return true;
    },
    async enqueue(trx, task) {
      const engine = task.engine;
      await boss.send(TASK_QUEUE.jobs, { taskId: task.id } satisfies TaskJob, {
        id: task.id,
        group: { id: engine, tier: engine },
        db: fromKysely(trx),
      });
    },
    async start() {
      if (started) return;
      started = true;
      await boss.start();
      await boss.createQueue(TASK_QUEUE.exhausted, {
        retryLimit: maxAttempts,
        retryDelay: o.retryDelayS,
        retryBackoff: true,
      });
      const options = {
        retryLimit: maxAttempts - 1,
        retryDelay: o.retryDelayS,
        retryBackoff: true,
        retryDelayMax: TASK_QUEUE.retryDelayMaxS,
        heartbeatSeconds: o.leaseS,
        // A finished run may wait out a storage or database outage for its upload before it settles (store-retry.ts).
        expireInSeconds: Math.ceil(o.runTimeoutMs / 1000) + OUTAGES.storeRetryDeadlineS + o.leaseS,
        deadLetter: TASK_QUEUE.exhausted,
      };
      await boss.createQueue(TASK_QUEUE.jobs, { ...options, notify: true });
      // An existing queue keeps its options from creation: bring them to this configuration.
      await boss.updateQueue(TASK_QUEUE.jobs, options);
      if (!o.runWorkers) return;
      await listener.start();
      sweep.start();
      await fetchJobs();
      await boss.work<TaskJob>(TASK_QUEUE.exhausted, polling, async ([job]) => {
        if (job) await exhausted(job);
      });
    },
    async pause() {
      if (!started || paused || !o.runWorkers) return;
      paused = true;
      // Jobs already running go on (their outputs wait for the store); no new one is fetched.
      await boss.offWork(TASK_QUEUE.jobs, { wait: false });
    },
    async resume() {
      if (!started || !paused) return;
      try {
        await fetchJobs();
        paused = false;
      } catch (error) {
        // Some slots may have started: stop them all, so the next resume starts each once.
        await boss.offWork(TASK_QUEUE.jobs, { wait: false }).catch(() => undefined);
        throw error;
      }
    },
    async stop(drainMs) {
      if (!started) return;
      started = false;
      if (drainMs !== undefined && o.runWorkers) {
        // Take no new job, give the running ones until the deadline, then hand back what still runs.
        await boss
          .offWork(TASK_QUEUE.jobs, { wait: false })
          .catch((error: unknown) => o.log.warn('stopping job fetch failed', { error: message(error) }));
        const drained =
          running.size === 0 || (await settlesWithin(new Promise<void>((resolve) => (idle = resolve)), drainMs));
        if (!drained && o.handBack) {
          for (const { controller, task } of [...running.values()]) {
            if (await o.handBack(task).catch(() => false))
              controller.abort(new TaskHandedBack('handed back: this process is shutting down'));
          }
        }
      }
      await listener.stop();
      await sweep.stop();
      await boss.stop({ graceful: true });
    },
  };
}
