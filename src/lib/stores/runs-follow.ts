// Follows one unfinished run for the runs store (runs.ts): over the account's status stream, or by polling when no
// stream can be had, until it ends or polling keeps failing. Loaded with the first run.
import { playgroundApi, type TaskView } from '../api';
import { RUN_FOLLOW } from '../product-rules';

interface Sink {
  /** Each new state of the task. */
  put(view: TaskView): void;
  /** Polling gave up (the network is down). */
  lost(error: unknown): void;
  /** Following stopped, whichever way. */
  done(): void;
}

/** Starts following; answers the function that stops it (the store calls it when the run ends). */
export function followRun(taskId: string, sink: Sink): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let leaveStream: (() => void) | undefined;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    leaveStream?.();
    clearTimeout(timer);
    sink.done();
  };
  let failures = 0;
  const poll = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      playgroundApi.poll(taskId).then(
        (view) => {
          failures = 0;
          sink.put(view);
          poll();
        },
        (error: unknown) => {
          failures += 1;
          if (failures < RUN_FOLLOW.maxPollFailures) return poll();
          stop();
          sink.lost(error);
        },
      );
    }, RUN_FOLLOW.pollMs);
  };
  import('../api/task-stream').then((live) => {
    if (stopped) return;
    leaveStream = live.followTask(taskId, sink.put, () => {
      leaveStream = undefined;
      poll();
    });
  }, poll);
  return stop;
}
