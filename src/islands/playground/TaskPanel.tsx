// The runs of a screen, newest first: how many are in progress against the per-user limit, and a card for each.
import { lazy, Suspense } from 'react';
import { RUN_MESSAGES } from '../../lib/product-rules';
import { loadRunCard } from './run-card-loader';
import type { useTask } from './useTask';
import runStyles from './runs.module.css';

// The cards load with the first run (useTask starts fetching them at submit), not with the screen: a visitor who only
// looks never needs them.
const RunCard = lazy(loadRunCard);

type Task = ReturnType<typeof useTask>;

export default function TaskPanel({ task, title }: { task: Task; title: string }) {
  const { runs } = task;
  if (runs.length === 0) return null;
  return (
    <section className={runStyles.runs} aria-label="Runs" aria-live="polite">
      <p className={runStyles.count} data-testid="runs-in-progress">
        {RUN_MESSAGES.inProgress(task.active, task.limit)}
      </p>
      <Suspense fallback={null}>
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
      </Suspense>
    </section>
  );
}
