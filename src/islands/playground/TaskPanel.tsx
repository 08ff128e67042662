// The runs of a screen, newest first: how many are in progress against the per-user limit, and a card for each.
import { RUN_MESSAGES } from '../../lib/spec';
import RunCard from './RunCard';
import type { useTask } from './useTask';
import runStyles from './runs.module.css';

// The history lists past tasks with the same players; they live with the run card.
export { ExpiredOutputs, MediaPlayer } from './RunCard';

type Task = ReturnType<typeof useTask>;

export default function TaskPanel({ task, title }: { task: Task; title: string }) {
  const { runs } = task;
  if (runs.length === 0) return null;
  return (
    <section className={runStyles.runs} aria-label="Runs" aria-live="polite">
      <p className={runStyles.count} data-testid="runs-in-progress">
        {RUN_MESSAGES.inProgress(task.active, task.limit)}
      </p>
      {runs.map((run) => (
        <RunCard
          key={run.id}
          run={run}
          number={run.number}
          title={title}
          onCancel={() => void task.cancel(run.id)}
          onRetry={() => task.retry(run.id)}
          onDismiss={() => task.dismiss(run.id)}
        />
      ))}
    </section>
  );
}
