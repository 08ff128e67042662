// Runs tasks from a screen, several at once: login gate, submit, top-up on 402; each run's progress, result and retry
// come from the account's runs store (src/lib/stores/runs.ts), which the history reads too.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $loggedIn } from '../../lib/stores/signed-in';
import { openModal } from '../../lib/stores/modals';
import { $runs, cancelRun, runStarted, type RunEntry } from '../../lib/stores/runs';
import { RUN_MESSAGES, TASK_LIMITS, TASK_MESSAGES } from '../../lib/product-rules';
import { isInsufficientCredits, isNotLoggedIn, type TaskView } from './api';
import { bumpHistory } from './history-store';
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

/**
 * A card's run as the account's runs store has it: once submitted, its task, phase and error follow the store (the
 * history reads the same entry), so the card and the history never tell two states.
 */
function withEntry(run: Run, entry: RunEntry | undefined): Run {
  if (run.phase !== 'running' || !entry) return run;
  const { view: task, runningSince, lost } = entry;
  if (lost) return { ...run, task, runningSince, phase: 'failed', error: lost };
  if (isRunning(task)) return { ...run, task, runningSince };
  const succeeded = task.status === 'succeeded';
  return {
    ...run,
    task,
    runningSince,
    phase: succeeded ? 'succeeded' : 'failed',
    error: succeeded ? null : failureText(task),
  };
}

const viewOf = (runs: Run[], all: Record<string, RunEntry>) =>
  runs.map((r) => withEntry(r, r.task ? all[r.task.taskId] : undefined));

export function useTask(screen: string) {
  const [local, setLocal] = useState<Run[]>([]);
  // The list as last set, for decisions taken between renders (two quick submits must both count against the limit).
  const current = useRef<Run[]>([]);
  const alive = useRef(true);
  const count = useRef(0);
  const submits = useRef(new Map<number, { submit: Submit; logmap: Record<string, unknown> }>());
  const all = useStore($runs);
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
  useEffect(() => {
    const told = new Set<string>();
    return $runs.listen((entries) => {
      for (const run of viewOf(current.current, entries)) {
        const task = run.task;
        if (!task || told.has(task.taskId) || (run.phase !== 'succeeded' && run.phase !== 'failed')) continue;
        told.add(task.taskId);
        bumpHistory();
        if (run.phase === 'succeeded')
          trackAction(screen, 'succeeded', 'show', { taskId: task.taskId, credits: task.credits });
        else trackAction(screen, 'failed', 'show', { taskId: task.taskId });
      }
    });
  }, [screen]);

  const start = useCallback(
    async (id: number, submit: Submit) => {
      try {
        const task = await submit();
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
    [screen, patch, update],
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
      if (viewOf(current.current, $runs.get()).filter(isActive).length >= limit) return;
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
      await cancelRun(taskId);
    },
    [screen],
  );

  /** Removes a finished card (its task stays in the history). */
  const dismiss = useCallback(
    (id: number) =>
      update((list) => {
        const shown = viewOf(list, $runs.get());
        return list.filter((r, i) => r.id !== id || isActive(shown[i]!));
      }),
    [update],
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
