// The task queue: an interface a distributed queue can implement, and the default in-process workers over DB-stored
// tasks.
import type { Transaction } from 'kysely';
import type { Schema, TaskRow } from '../db';
import { notifyHook } from '../engines/providers/hooks';
import type { Logger } from '../log';
import { TASK_LIMITS, TASK_MESSAGES } from '../../src/lib/product-rules';
import { settlesWithin, TaskHandedBack } from './hand-back';
import { TaskTimeout } from './runner';
import type { TaskService } from './service';

/** What the rest of the server needs from a queue; a Redis- or SQS-backed one can replace the in-process one. */
export interface TaskQueue {
  /** A task was stored: wake an idle worker. */
  notify(): void;
  /** Aborts a task wherever it runs (cancel): in this process, or on another worker when the queue is shared. */
  abort(taskId: string): void;
  /** A provider webhook for job `key` (engine/taskId) came: wakes the worker waiting for it; true when one was told. */
  wake(key: string): Promise<boolean>;
  /**
   * Enqueues a stored task inside the transaction that stores it and holds its credits (a queue of jobs; none for the
   * in-process one).
   */
  enqueue?(trx: Transaction<Schema>, task: TaskRow): Promise<void>;
  /**
   * Resolves when the queue can take jobs (a job queue's own connection answers); absent: the tasks table is the queue.
   */
  ready?(): Promise<void>;
  /**
   * Stops fetching new jobs while the database or media store is away (server/lifecycle/pause.ts); running ones go on.
   */
  pause?(): Promise<void>;
  /** Fetches jobs again after pause(). */
  resume?(): Promise<void>;
  /** Recovers stranded tasks, then starts the workers. */
  start(): Promise<void>;
  /**
   * Stops taking tasks and waits for the running ones to finish. Given a drain deadline (SIGTERM, DRAIN_TIMEOUT_S),
   * the ones still running then are handed back to the queue (handBack) and their runs stopped.
   */
  stop(drainMs?: number): Promise<void>;
}

export interface InProcessQueueOptions {
  tasks: TaskService;
  log: Logger;
  workers: number;
  pollMs: number;
  runTimeoutMs: number;
  /** False in the api role: start() runs no workers and recovers nothing. */
  runWorkers?: boolean;
  /** Puts a running task back to queued for a draining stop (server/tasks/hand-back.ts); true when it was. */
  handBack?: (task: TaskRow) => Promise<boolean>;
}

export function inProcessQueue(o: InProcessQueueOptions): TaskQueue {
  const running = new Map<string, { controller: AbortController; task: TaskRow }>();
  const loops: Promise<void>[] = [];
  let stopped = true;
  /**
   * True while claiming is paused (server/lifecycle/pause.ts): the database or the media store does not answer. A claim
   * then would fail, or run a task whose output waits on disk for the store, holding a worker and its engine.
   */
  let paused = false;
  let wake: (() => void)[] = [];

  const wakeAll = () => {
    const waiting = wake;
    wake = [];
    for (const w of waiting) w();
  };

  /** Waits for a notify or the poll interval (tasks stored by another process are found by polling). */
  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, o.pollMs);
      wake.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  /**
   * run() settles an engine's failure itself; reaching here means the database failed while the run stored its
   * progress or result (locked, full, gone). The task must not stay running until the next restart: after a pause it
   * goes back to the queue for another attempt, or, with its attempts used, is failed and refunded. If the database
   * still refuses, the restart's recovery does the same.
   */
  async function runAgainLater(task: TaskRow): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, o.pollMs));
    try {
      if (task.attempts >= TASK_LIMITS.maxAttempts)
        await o.tasks.fail(task.id, TASK_MESSAGES.attemptsExhausted(task.attempts), ['running']);
      else if (await o.handBack?.(task)) wakeAll();
    } catch (error) {
      o.log.error('task left for recovery at restart', {
        taskId: task.id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  async function worker(): Promise<void> {
    while (!stopped) {
      if (paused) {
        await idle();
        continue;
      }
      let task;
      try {
        task = await o.tasks.claimNext();
      } catch (error) {
        o.log.error('task claim failed', { error: error instanceof Error ? error.message : String(error) });
      }
      if (!task) {
        await idle();
        continue;
      }
      const controller = new AbortController();
      running.set(task.id, { controller, task });
      const timer = setTimeout(() => controller.abort(new TaskTimeout('timed out')), o.runTimeoutMs);
      try {
        await o.tasks.run(task, controller.signal);
      } catch (error) {
        o.log.error('task run failed', {
          taskId: task.id,
          error: error instanceof Error ? error.message : String(error),
        });
        await runAgainLater(task);
      } finally {
        clearTimeout(timer);
        running.delete(task.id);
      }
    }
  }

  return {
    notify: wakeAll,
    abort(taskId) {
      running.get(taskId)?.controller.abort(new Error('canceled'));
    },
    wake: async (key) => notifyHook(key),
    async pause() {
      paused = true;
    },
    async resume() {
      paused = false;
      wakeAll();
    },
    async start() {
      if (!stopped || o.runWorkers === false) return;
      const recovered = await o.tasks.recover();
      if (recovered.resumed || recovered.failed) o.log.info('tasks recovered after restart', recovered);
      stopped = false;
      for (let i = 0; i < o.workers; i++) loops.push(worker());
    },
    async stop(drainMs) {
      stopped = true;
      wakeAll();
      const finished = Promise.all(loops.splice(0));
      if (drainMs !== undefined && o.handBack && !(await settlesWithin(finished, drainMs))) {
        // Past the deadline: each task still running goes back to the queue first, then its run is stopped.
        for (const { controller, task } of [...running.values()]) {
          if (await o.handBack(task).catch(() => false))
            controller.abort(new TaskHandedBack('handed back: this process is shutting down'));
        }
      }
      await finished;
    },
  };
}
