// Runs tasks from a screen, several at once: login gate, submit, top-up on 402, each run polled with its own progress,
// result and retry.
import { useCallback, useEffect, useRef, useState } from 'react';
import { $loggedIn, refreshUser } from '../../lib/stores/signed-in';
import { openModal } from '../../lib/stores/modals';
import { RUN_MESSAGES, TASK_LIMITS, TASK_MESSAGES } from '../../lib/product-rules';
import { isInsufficientCredits, isNotLoggedIn, liveStatus, playgroundApi, type TaskView } from './api';
import { bumpHistory } from './history-store';
import { MAX_POLL_FAILURES, POLL_INTERVAL_MS } from './timing';
import { trackAction } from './track';
import { loadRunCard } from './run-card-loader';
import type { Phase, Run } from './run';

export type { Phase, Run };

/** The latest run's state, as one-run screens read it (the voice-clone screen names its clone when it succeeds). */
export interface TaskState {
  phase: Phase;
  task: TaskView | null;
  error: string | null;
  needsTopUp: boolean;
}

type Submit = () => Promise<TaskView>;

export const failureText = (task: Pick<TaskView, 'status' | 'creditsHeld' | 'error'>) =>
  task.status === 'canceled'
    ? // A free run held nothing: there is nothing to give back.
      `The task was canceled${task.creditsHeld > 0 ? '; credits were refunded' : ''}. Submit again when ready.`
    : `${task.error ?? 'The task failed'}. Check the inputs and try again.`;

const isActive = (r: Run) => r.phase === 'submitting' || r.phase === 'running';
const isRunning = (task: TaskView) => task.status === 'queued' || task.status === 'running';
let nextId = 1;

export function useTask(screen: string) {
  const [runs, setRuns] = useState<Run[]>([]);
  // The list as last set, for decisions taken between renders (two quick submits must both count against the limit).
  const current = useRef<Run[]>([]);
  const alive = useRef(true);
  const following = useRef(new Set<() => void>());
  const count = useRef(0);
  const submits = useRef(new Map<number, { submit: Submit; logmap: Record<string, unknown> }>());
  useEffect(() => {
    alive.current = true;
    const runs = following.current;
    return () => {
      alive.current = false;
      // A screen that goes away stops following its runs.
      for (const leave of [...runs]) leave();
    };
  }, []);

  const update = useCallback((next: (list: Run[]) => Run[]) => {
    if (!alive.current) return;
    current.current = next(current.current);
    setRuns(current.current);
  }, []);
  const patch = useCallback(
    (id: number, change: Partial<Run> | ((r: Run) => Partial<Run>)) =>
      update((list) =>
        list.map((r) => (r.id === id ? { ...r, ...(typeof change === 'function' ? change(r) : change) } : r)),
      ),
    [update],
  );

  /** A running task's own progress (started time kept from the first poll that saw it running). */
  const seen = useCallback(
    (id: number, task: TaskView) =>
      patch(id, (r) => ({ task, runningSince: r.runningSince ?? (task.status === 'running' ? Date.now() : null) })),
    [patch],
  );

  const follow = useCallback(
    async (id: number, first: TaskView) => {
      // Pushed over the account's status stream; polled once a second only when no stream can be had.
      const streamed = isRunning(first)
        ? await liveStatus().then(
            (live) => live.untilFinished(first, (t) => seen(id, t), following.current),
            () => null,
          )
        : null;
      let task = streamed ?? first;
      let failures = 0;
      while (alive.current && isRunning(task)) {
        await new Promise((r) => setTimeout(r, POLL_INTERVAL_MS));
        if (!alive.current) return;
        try {
          task = await playgroundApi.poll(task.taskId);
          failures = 0;
          seen(id, task);
        } catch (e) {
          failures += 1;
          if (failures >= MAX_POLL_FAILURES) {
            patch(id, {
              phase: 'failed',
              task,
              error: `${e instanceof Error ? e.message : 'Network error'}. The task keeps running; find it in the history below.`,
            });
            return;
          }
        }
      }
      if (!alive.current) return;
      bumpHistory();
      // The charge is settled now (per-second features on the real length): show the true balance.
      void refreshUser();
      if (task.status === 'succeeded') {
        trackAction(screen, 'succeeded', 'show', { taskId: task.taskId, credits: task.credits });
        patch(id, { phase: 'succeeded', task, error: null });
      } else {
        trackAction(screen, 'failed', 'show', { taskId: task.taskId });
        patch(id, { phase: 'failed', task, error: failureText(task) });
      }
    },
    [screen, patch, seen],
  );

  const start = useCallback(
    async (id: number, submit: Submit) => {
      try {
        const task = await submit();
        if (!alive.current) return;
        patch(id, { phase: 'running', task, runningSince: task.status === 'running' ? Date.now() : null });
        bumpHistory();
        void refreshUser();
        await follow(id, task);
      } catch (e) {
        if (!alive.current) return;
        if (isNotLoggedIn(e)) {
          openModal('login');
          update((list) => list.filter((r) => r.id !== id));
        } else if (isInsufficientCredits(e)) {
          trackAction(screen, 'topupprompt', 'show');
          patch(id, {
            phase: 'failed',
            error: `${TASK_MESSAGES.insufficientCredits}. Top up, then submit again.`,
            needsTopUp: true,
          });
        } else {
          patch(id, { phase: 'failed', error: e instanceof Error ? e.message : 'Something went wrong. Try again.' });
        }
      }
    },
    [screen, patch, update, follow],
  );

  const limit = TASK_LIMITS.perUserConcurrent;

  /**
   * Starts another run beside those in progress (the form stays open) unless the visitor is a guest (then the login
   * modal opens; the screen's draft keeps the inputs) or the per-user limit of runs at once is reached.
   */
  const run = useCallback(
    async (submit: Submit, logmap: Record<string, unknown> = {}) => {
      if (!$loggedIn.get()) {
        trackAction(screen, 'loginprompt', 'show');
        openModal('login');
        return;
      }
      if (current.current.filter(isActive).length >= limit) return;
      const id = nextId++;
      void loadRunCard();
      submits.current.set(id, { submit, logmap });
      update((list) => [
        {
          id,
          number: ++count.current,
          phase: 'submitting',
          task: null,
          error: null,
          needsTopUp: false,
          submittedAt: Date.now(),
          runningSince: null,
        },
        ...list,
      ]);
      trackAction(screen, 'submit', 'click', logmap);
      await start(id, submit);
    },
    [screen, limit, start, update],
  );

  /** Submits the same request again as a new run; the failed card gives way to it. */
  const retry = useCallback(
    (id: number) => {
      const earlier = submits.current.get(id);
      if (!earlier) return;
      trackAction(screen, 'retry');
      update((list) => list.filter((r) => r.id !== id));
      void run(earlier.submit, earlier.logmap);
    },
    [screen, run, update],
  );

  const cancel = useCallback(
    async (id: number) => {
      const taskId = current.current.find((r) => r.id === id)?.task?.taskId;
      if (!taskId) return;
      trackAction(screen, 'cancel');
      try {
        await playgroundApi.cancel(taskId);
      } catch {
        // Already finished: the next poll shows the real state.
      }
    },
    [screen],
  );

  /** Removes a finished card (its task stays in the history). */
  const dismiss = useCallback(
    (id: number) => update((list) => list.filter((r) => r.id !== id || isActive(r))),
    [update],
  );

  const active = runs.filter(isActive).length;

  const latest = runs[0];
  const state: TaskState = latest
    ? { phase: latest.phase, task: latest.task, error: latest.error, needsTopUp: latest.needsTopUp }
    : { phase: 'idle', task: null, error: null, needsTopUp: false };
  return {
    ...state,
    runs,
    /** Runs queued or running now, and the most the account may have at once. */
    active,
    limit,
    /** Why another submit must wait, or null while there is room. */
    atLimit: active >= limit ? RUN_MESSAGES.atLimit(limit) : null,
    /** Never locks the form: a submit only waits for the run before it to be sent. */
    busy: false,
    run,
    retry,
    cancel,
    dismiss,
  };
}
