// Runs one task from a screen: login gate, submit, top-up on 402, polling with progress, result and retry.
import { useCallback, useEffect, useRef, useState } from 'react';
import { $loggedIn, refreshUser } from '../../lib/stores/session';
import { openModal } from '../../lib/stores/modals';
import { TASK_MESSAGES } from '../../lib/spec';
import { isInsufficientCredits, isNotLoggedIn, playgroundApi, type TaskView } from './api';
import { bumpHistory } from './history-store';
import { MAX_POLL_FAILURES, POLL_INTERVAL_MS } from './timing';
import { trackAction } from './track';

export type Phase = 'idle' | 'submitting' | 'running' | 'succeeded' | 'failed';

export interface TaskState {
  phase: Phase;
  task: TaskView | null;
  error: string | null;
  /** Set when the server refused for too few credits: the screen offers the top-up. */
  needsTopUp: boolean;
}

const IDLE: TaskState = { phase: 'idle', task: null, error: null, needsTopUp: false };

const failureText = (task: TaskView) =>
  task.status === 'canceled' ? 'The task was canceled; credits were refunded. Submit again when ready.' : `${task.error ?? 'The task failed'}. Check the inputs and try again.`;

export function useTask(screen: string) {
  const [state, setState] = useState<TaskState>(IDLE);
  const alive = useRef(true);
  const lastSubmit = useRef<(() => Promise<TaskView>) | null>(null);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const follow = useCallback(
    async (first: TaskView) => {
      let task = first;
      let failures = 0;
      while (alive.current && (task.status === 'queued' || task.status === 'running')) {
        await new Promise((r) => setTimeout(r, POLL_INTERVAL_MS));
        if (!alive.current) return;
        try {
          task = await playgroundApi.poll(task.taskId);
          failures = 0;
          setState((s) => ({ ...s, task }));
        } catch (e) {
          failures += 1;
          if (failures >= MAX_POLL_FAILURES) {
            setState({ phase: 'failed', task, error: `${e instanceof Error ? e.message : 'Network error'}. The task keeps running; find it in the history below.`, needsTopUp: false });
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
        setState({ phase: 'succeeded', task, error: null, needsTopUp: false });
      } else {
        trackAction(screen, 'failed', 'show', { taskId: task.taskId });
        setState({ phase: 'failed', task, error: failureText(task), needsTopUp: false });
      }
    },
    [screen],
  );

  /** Submits unless the visitor is a guest (then the login modal opens; the screen's draft keeps the inputs). */
  const run = useCallback(
    async (submit: () => Promise<TaskView>, logmap: Record<string, unknown> = {}) => {
      if (!$loggedIn.get()) {
        trackAction(screen, 'loginprompt', 'show');
        openModal('login');
        return;
      }
      lastSubmit.current = submit;
      setState({ phase: 'submitting', task: null, error: null, needsTopUp: false });
      trackAction(screen, 'submit', 'click', logmap);
      try {
        const task = await submit();
        if (!alive.current) return;
        setState({ phase: 'running', task, error: null, needsTopUp: false });
        bumpHistory();
        void refreshUser();
        await follow(task);
      } catch (e) {
        if (!alive.current) return;
        if (isNotLoggedIn(e)) {
          openModal('login');
          setState(IDLE);
        } else if (isInsufficientCredits(e)) {
          trackAction(screen, 'topupprompt', 'show');
          setState({ phase: 'failed', task: null, error: `${TASK_MESSAGES.insufficientCredits}. Top up, then submit again.`, needsTopUp: true });
        } else {
          setState({ phase: 'failed', task: null, error: e instanceof Error ? e.message : 'Something went wrong. Try again.', needsTopUp: false });
        }
      }
    },
    [screen, follow],
  );

  const retry = useCallback(() => {
    trackAction(screen, 'retry');
    if (lastSubmit.current) void run(lastSubmit.current);
  }, [screen, run]);

  const cancel = useCallback(async () => {
    if (!state.task) return;
    trackAction(screen, 'cancel');
    try {
      await playgroundApi.cancel(state.task.taskId);
    } catch {
      // Already finished: the next poll shows the real state.
    }
  }, [screen, state.task]);

  const reset = useCallback(() => setState(IDLE), []);
  return { ...state, busy: state.phase === 'submitting' || state.phase === 'running', run, retry, cancel, reset };
}
