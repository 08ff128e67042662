// A screen's runs as the account's runs store has them: loaded with the first run (useTaskRuns.ts), with the words a
// failed or canceled card says.
import type { RunEntry } from '../../lib/stores/runs';
import type { TaskView } from './api';
import type { Run } from './run';

export const failureText = (task: Pick<TaskView, 'status' | 'creditsHeld' | 'error'>) =>
  task.status === 'canceled'
    ? // A free run held nothing: there is nothing to give back.
      `The task was canceled${task.creditsHeld > 0 ? '; credits were refunded' : ''}. Submit again when ready.`
    : `${task.error ?? 'The task failed'}. Check the inputs and try again.`;

const isRunning = (task: TaskView) => task.status === 'queued' || task.status === 'running';

/**
 * A card's run as the store has it: once submitted, its task, phase and error follow the store (the history reads the
 * same entry), so the card and the history never tell two states.
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

export const viewOf = (runs: Run[], all: Record<string, RunEntry>): Run[] =>
  runs.map((r) => withEntry(r, r.task ? all[r.task.taskId] : undefined));

/** The runs that ended since `told` was last asked (each is told once): the screen counts them as they end. */
export function newlyEnded(runs: Run[], all: Record<string, RunEntry>, told: Set<string>): Run[] {
  return viewOf(runs, all).filter((run) => {
    const id = run.task?.taskId;
    if (!id || told.has(id) || (run.phase !== 'succeeded' && run.phase !== 'failed')) return false;
    told.add(id);
    return true;
  });
}
