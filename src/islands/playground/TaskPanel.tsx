// What a running or finished task shows: progress bar, the result in a player with download, or an error with retry.
import { TASK_MESSAGES } from '../../lib/spec';
import type { TaskOutput, TaskView } from './api';
import type { useTask } from './useTask';
import styles from './playground.module.css';

type Task = ReturnType<typeof useTask>;

export function MediaPlayer({ output, label }: { output: TaskOutput; label: string }) {
  if (output.kind === 'audio') return <audio className={styles.player} controls src={output.url} aria-label={label} data-testid="result-audio" />;
  if (output.kind === 'video') return <video className={styles.player} controls playsInline src={output.url} aria-label={label} data-testid="result-video" />;
  return <img className={styles.player} src={output.url} alt={label} data-testid="result-image" />;
}

/** In place of the player once retention removed the results (their links would answer 403). */
export function ExpiredOutputs({ task }: { task: Pick<TaskView, 'outputsExpired' | 'outputsExpiredAt'> }) {
  if (!task.outputsExpired) return null;
  const date = task.outputsExpiredAt === null ? '' : new Date(task.outputsExpiredAt).toLocaleDateString();
  return (
    <p className="muted" data-testid="outputs-expired">
      {date ? TASK_MESSAGES.outputsExpiredOn(date) : TASK_MESSAGES.outputsExpired}
    </p>
  );
}

export function downloadName(output: TaskOutput, taskId: string): string {
  return `${taskId}.${output.mime.split('/')[1]?.replace('mpeg', 'mp3').replace('quicktime', 'mov') ?? 'bin'}`;
}

export default function TaskPanel({ task, title }: { task: Task; title: string }) {
  const { phase, error, needsTopUp } = task;
  if (phase === 'idle') return null;
  const view = task.task;
  // The server reports progress as a percentage (0–100).
  const percent = Math.round(view?.progress ?? 0);
  return (
    <section className={styles.result} aria-label="Result" aria-live="polite">
      {(phase === 'submitting' || phase === 'running') && (
        <div>
          <p>{phase === 'submitting' ? 'Submitting…' : view?.status === 'queued' ? 'Waiting for a free worker…' : 'Generating…'}</p>
          <progress className={styles.progress} max={100} value={phase === 'submitting' ? undefined : percent} aria-label="Task progress" />
          {phase === 'running' && (
            <button type="button" className="button button--ghost" onClick={() => void task.cancel()}>
              Cancel
            </button>
          )}
        </div>
      )}
      {phase === 'failed' && (
        <div role="alert" className={styles.errorBox}>
          <p>{error}</p>
          {needsTopUp ? (
            <a className="button" href="/pricing#credit-packs">
              Top up credits
            </a>
          ) : (
            <button type="button" className="button button--ghost" onClick={task.retry}>
              Retry
            </button>
          )}
        </div>
      )}
      {phase === 'succeeded' && view && (
        <div>
          <p className={styles.done}>
            Done · {view.credits} {view.credits === 1 ? 'credit' : 'credits'} charged
          </p>
          {view.cloneId && !view.outputs.length && <p>Voice ready. It now appears in the voice pickers.</p>}
          <ExpiredOutputs task={view} />
          {view.outputs.map((o) => (
            <div key={o.url} className={styles.output}>
              <MediaPlayer output={o} label={title} />
              <a className="button button--ghost" href={o.url} download={downloadName(o, view.taskId)}>
                Download
              </a>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
