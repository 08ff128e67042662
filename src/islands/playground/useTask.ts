// Runs tasks from a screen, several at once: login gate, submit, top-up on 402; each run's progress, result and retry
// come from the account's runs store (src/lib/stores/runs.ts), which the history reads too.
import { useCallback, useEffect, useRef, useState } from 'react';
import { $loggedIn } from '../../lib/stores/signed-in';
import { openModal } from '../../lib/stores/modals';
import type { RunEntry } from '../../lib/stores/runs';
import type { newlyEnded } from './run-view';
import { RUN_MESSAGES, TASK_LIMITS, TASK_MESSAGES } from '../../lib/product-rules';
import { isInsufficientCredits, isNotLoggedIn, type TaskView } from './api';
import { bumpHistory } from './history-store';
import { trackAction } from './track';
import { useTaskRuns } from './useTaskRuns';
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

const isActive = (r: Run) => r.phase === 'submitting' || r.phase === 'running';
let nextId = 1;

export function useTask(screen: string) {
  const [local, setLocal] = useState<Run[]>([]);
  // The list as last set, for decisions taken between renders (two quick submits must both count against the limit).
  const current = useRef<Run[]>([]);
  const alive = useRef(true);
  const count = useRef(0);
  const submits = useRef(new Map<number, { submit: Submit; logmap: Record<string, unknown> }>());
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const update = useCallback((next: (list: Run[]) => Run[]) => {
    if (!alive.current) return;
    current.current = next(current.current);
    setLocal(current.current);
  }, []);
  const patch = useCallback(
    (id: number, change: Partial<Run>) => update((list) => list.map((r) => (r.id === id ? { ...r, ...change } : r))),
    [update],
  );

  // A run of this screen that ends is counted once, as it ends (the store tells it, whichever way it heard).
  const told = useRef(new Set<string>());
  const ended = useCallback(
    (entries: Record<string, RunEntry>, runs: { newlyEnded: typeof newlyEnded }) => {
      for (const { phase, task } of runs.newlyEnded(current.current, entries, told.current)) {
        bumpHistory();
        if (phase === 'succeeded')
          trackAction(screen, 'succeeded', 'show', { taskId: task!.taskId, credits: task!.credits });
        else trackAction(screen, 'failed', 'show', { taskId: task!.taskId });
      }
    },
    [screen],
  );
  const { all, runs: store, peek, viewOf } = useTaskRuns(ended);

  const start = useCallback(
    async (id: number, submit: Submit) => {
      try {
        const task = await submit();
        if (!alive.current) return;
        const { runStarted } = await store();
        if (!alive.current) return;
        patch(id, { phase: 'running', task });
        // Followed by the store from here (stream, or polls); the hold shows in the balance at once.
        runStarted(task);
        bumpHistory();
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
    [screen, patch, update, store],
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
      if (viewOf(current.current, peek()).filter(isActive).length >= limit) return;
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
    [screen, limit, start, update, peek, viewOf],
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
      await (await store()).cancelRun(taskId);
    },
    [screen, store],
  );

  /** Removes a finished card (its task stays in the history). */
  const dismiss = useCallback(
    (id: number) =>
      update((list) => {
        const shown = viewOf(list, peek());
        return list.filter((r, i) => r.id !== id || isActive(shown[i]!));
      }),
    [update, peek, viewOf],
  );

  const runs = viewOf(local, all);
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
