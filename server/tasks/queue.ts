// The task queue: an interface a distributed queue can implement, and the default in-process workers over DB-stored tasks.
import type { Transaction } from 'kysely';
import type { Schema, TaskRow } from '../db';
import { notifyHook } from '../engines/providers/hooks';
import type { Logger } from '../log';
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
  /** Enqueues a stored task inside the transaction that stores it and holds its credits (a queue of jobs; none for the in-process one). */
  enqueue?(trx: Transaction<Schema>, task: TaskRow): Promise<void>;
  /** Recovers stranded tasks, then starts the workers. */
  start(): Promise<void>;
  /** Stops taking tasks and waits for the running ones to finish. */
  stop(): Promise<void>;
}

export interface InProcessQueueOptions {
  tasks: TaskService;
  log: Logger;
  workers: number;
  pollMs: number;
  runTimeoutMs: number;
  /** False in the api role: start() runs no workers and recovers nothing. */
  runWorkers?: boolean;
}

export function inProcessQueue(o: InProcessQueueOptions): TaskQueue {
  const running = new Map<string, AbortController>();
  const loops: Promise<void>[] = [];
  let stopped = true;
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

  async function worker(): Promise<void> {
    while (!stopped) {
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
      running.set(task.id, controller);
      const timer = setTimeout(() => controller.abort(new TaskTimeout('timed out')), o.runTimeoutMs);
      try {
        await o.tasks.run(task, controller.signal);
      } catch (error) {
        // run() settles failures itself; reaching here means the database failed, and recovery will resume it.
        o.log.error('task run failed', { taskId: task.id, error: error instanceof Error ? error.message : String(error) });
      } finally {
        clearTimeout(timer);
        running.delete(task.id);
      }
    }
  }

  return {
    notify: wakeAll,
    abort(taskId) {
      running.get(taskId)?.abort(new Error('canceled'));
    },
    wake: async (key) => notifyHook(key),
    async start() {
      if (!stopped || o.runWorkers === false) return;
      const recovered = await o.tasks.recover();
      if (recovered.resumed || recovered.failed) o.log.info('tasks recovered after restart', recovered);
      stopped = false;
      for (let i = 0; i < o.workers; i++) loops.push(worker());
    },
    async stop() {
      stopped = true;
      wakeAll();
      await Promise.all(loops.splice(0));
    },
  };
}
