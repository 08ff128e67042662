// One run's card: its progress with elapsed and estimated remaining time, then its result in a player with download, or
// its error with retry; history items show their results in the same player.
import { useEffect, useState, type AudioHTMLAttributes, type ImgHTMLAttributes, type VideoHTMLAttributes } from 'react';
import { RUN_MESSAGES, TASK_MESSAGES } from '../../lib/product-rules';
import type { TaskView } from './api';
import type { Run } from './run';
import { downloadHref, downloadName } from './download-name';
import EngineLabel from './EngineLabel';
import styles from './playground.module.css';
import runStyles from './runs.module.css';

interface MediaPlayerProps {
  /** audio, video, or else an image. */
  kind: string;
  src: string;
  label: string;
  className?: string;
  audio?: AudioHTMLAttributes<HTMLAudioElement>;
  video?: VideoHTMLAttributes<HTMLVideoElement>;
  img?: ImgHTMLAttributes<HTMLImageElement>;
}

/**
 * A result in its player: audio and video with controls, an image with its label as alt text; what each loads before it
 * is played is the caller's (a history of many loads less than one run's card).
 */
export function MediaPlayer({ kind, src, label, className, audio, video, img }: MediaPlayerProps) {
  const testid = `result-${kind}`;
  if (kind === 'audio')
    return <audio className={className} controls src={src} aria-label={label} data-testid={testid} {...audio} />;
  if (kind === 'video')
    return (
      <video className={className} controls playsInline src={src} aria-label={label} data-testid={testid} {...video} />
    );
  return <img className={className} src={src} alt={label} data-testid={testid} {...img} />;
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

/** This browser's clock, ticking each second while `live` (elapsed and remaining times count on it). */
function useNow(live: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [live]);
  return now;
}

/**
 * Time left from the pace so far: the time spent running over the share done, times the share left. Unknown before
 * the first progress report (and while queued), since nothing says yet how fast this engine goes.
 */
export function remainingSeconds(run: Pick<Run, 'runningSince' | 'task'>, now: number): number | null {
  const progress = run.task?.progress ?? 0;
  if (run.task?.status !== 'running' || run.runningSince === null || progress <= 0 || progress >= 100) return null;
  return (((now - run.runningSince) / 1000) * (100 - progress)) / progress;
}

interface Props {
  run: Run;
  /** Numbers the cards in the order they were submitted. */
  number: number;
  title: string;
  onCancel: () => void;
  onRetry: () => void;
  onDismiss: () => void;
}

export default function RunCard({ run, number, title, onCancel, onRetry, onDismiss }: Props) {
  const { phase, error, needsTopUp, task: view } = run;
  const live = phase === 'submitting' || phase === 'running';
  const now = useNow(live);
  const elapsed = Math.max(0, (now - run.submittedAt) / 1000);
  const left = remainingSeconds(run, now);
  // The server reports progress as a percentage (0–100).
  const percent = Math.round(view?.progress ?? 0);
  return (
    <article
      className={`${styles.result} ${runStyles.card}`}
      aria-label={`Run ${number}`}
      data-testid="run-card"
      data-phase={phase}
      data-task-id={view?.taskId}
    >
      <header className={runStyles.head}>
        <strong>Run {number}</strong>
        {live && (
          <span className={runStyles.times} data-testid="run-times">
            <span data-testid="run-elapsed">{RUN_MESSAGES.elapsed(elapsed)}</span> ·{' '}
            <span data-testid="run-remaining">
              {left === null ? RUN_MESSAGES.estimating : RUN_MESSAGES.remaining(left)}
            </span>
          </span>
        )}
        {!live && (
          <button type="button" className={runStyles.dismiss} onClick={onDismiss} aria-label={`Close run ${number}`}>
            ×
          </button>
        )}
      </header>
      {live && (
        <div>
          <p>
            {phase === 'submitting'
              ? 'Submitting…'
              : view?.status === 'queued'
                ? 'Waiting for a free worker…'
                : 'Generating…'}
          </p>
          <progress
            className={styles.progress}
            max={100}
            value={phase === 'submitting' ? undefined : percent}
            aria-label="Task progress"
          />
          {phase === 'running' && (
            <button type="button" className="button button--ghost" onClick={onCancel}>
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
            <button type="button" className="button button--ghost" onClick={onRetry}>
              Retry
            </button>
          )}
        </div>
      )}
      {phase === 'succeeded' && view && (
        <div>
          <p className={styles.done}>
            Done · {view.credits} {view.credits === 1 ? 'credit' : 'credits'} charged
            {view.executionTime !== null && (
              <span className={runStyles.took}> · took {RUN_MESSAGES.elapsed(view.executionTime / 1000)}</span>
            )}
          </p>
          <EngineLabel task={view} />
          {view.cloneId && !view.outputs.length && <p>Voice ready. It now appears in the voice pickers.</p>}
          <ExpiredOutputs task={view} />
          {view.outputs.map((o, i) => (
            <div key={o.url} className={styles.output}>
              <MediaPlayer kind={o.kind} src={o.url} label={title} className={styles.player} />
              {/* Saved as <feature>-<date>.<ext>, not under the task id (download-name.ts). */}
              <a
                className="button button--ghost"
                href={downloadHref(o, downloadName(view.feature, view.createdAt, o, i))}
                download={downloadName(view.feature, view.createdAt, o, i)}
              >
                Download
              </a>
            </div>
          ))}
        </div>
      )}
    </article>
  );
}
