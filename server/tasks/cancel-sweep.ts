// Stops runs whose task ended or moved on elsewhere (a cancel whose NOTIFY this worker missed, a takeover) by reading
// their status every few seconds.
import type { TaskRow } from '../db';
import type { Logger } from '../log';
import { TASK_QUEUE } from '../../src/lib/product-rules';

export interface CancelSweepOptions {
  /** The runs of this process, by task id. */
  running: ReadonlyMap<string, { controller: AbortController; task: TaskRow }>;
  /** Reads a task's status and attempt count; undefined when it is gone. */
  read(id: string): Promise<Pick<TaskRow, 'status' | 'attempts'> | undefined>;
  log: Logger;
  /** TASK_QUEUE.cancelCheckS unless given (tests). */
  intervalMs?: number;
}

/**
 * The listener hears cancels at once, but a notification sent while its connection was down is lost: this sweep is
 * the backstop. A run is stopped when its task was finished by someone else (canceled, failed, or deleted) or was
 * claimed by a newer attempt; a queued task is left alone (a draining stop hands back and stops its own runs).
 */
export function cancelSweep(o: CancelSweepOptions) {
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;

  async function sweepOnce(): Promise<void> {
    for (const [id, { controller, task }] of [...o.running]) {
      if (controller.signal.aborted) continue;
      let now: Pick<TaskRow, 'status' | 'attempts'> | undefined;
      try {
        now = await o.read(id);
      } catch {
        // The database is away: nothing can be learned now; the next sweep tries again.
        return;
      }
      if (!now || (now.status !== 'running' && now.status !== 'queued')) {
        o.log.info('run stopped: its task was ended elsewhere', { taskId: id, status: now?.status ?? 'deleted' });
        controller.abort(new Error('canceled'));
      } else if (now.status === 'running' && now.attempts !== task.attempts) {
        o.log.info('run stopped: a newer attempt holds its task', {
          taskId: id,
          attempt: task.attempts,
          newer: now.attempts,
        });
        controller.abort(new Error('the task was taken over by a newer attempt'));
      }
    }
  }

  /** One sweep now (after the listener reconnects); sweeps never overlap. */
  function sweep(): Promise<void> {
    sweeping ??= sweepOnce().finally(() => (sweeping = undefined));
    return sweeping;
  }

  return {
    sweep,
    start() {
      clearInterval(timer);
      timer = setInterval(() => void sweep(), o.intervalMs ?? TASK_QUEUE.cancelCheckS * 1000);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await sweeping;
    },
  };
}
