// One history item: what it was made from, engine, status and charge, the result (videos with their poster frame), and
// compact actions.
import { useState } from 'react';
import { featureLabel, inputSummary, TASK_MESSAGES } from '../../lib/product-rules';
import type { TaskView } from './api';
import { downloadHref, downloadName } from './download-name';
import EngineLabel from './EngineLabel';
import { MediaPlayer } from './RunCard';
import PaidConfirm from '../shared/PaidConfirm';
import ShareLinks from './ShareLinks';
import styles from './History.module.css';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

interface Props {
  task: TaskView;
  highlighted: boolean;
  onRerun: (task: TaskView) => void;
  onDelete: (task: TaskView) => void;
}

export default function HistoryItem({ task, highlighted, onRerun, onDelete }: Props) {
  const [sharing, setSharing] = useState(false);
  // A paid re-run states its price and asks first, as Generate shows the cost beside its button; a free one just runs.
  const [confirming, setConfirming] = useState(false);
  const rerunCost = task.creditsHeld;
  const name = featureLabel(task.feature);
  const when = timeFormat.format(task.createdAt);
  const { text, detail } = inputSummary(task.input);
  const finished = task.status !== 'queued' && task.status !== 'running';
  const shareable = task.status === 'succeeded' && task.outputs.length > 0 && !task.outputsExpired;
  const credits = `${task.credits} ${task.credits === 1 ? 'credit' : 'credits'}`;
  return (
    <li
      className={`${styles.item} ${highlighted ? styles.highlighted : ''}`}
      data-task-id={task.taskId}
      data-status={task.status}
      tabIndex={highlighted ? -1 : undefined}
    >
      <div className={styles.meta}>
        <strong>{name}</strong>
        <div className={styles.engine}>
          <EngineLabel task={task} compact />
        </div>
        <span className={`${styles.status} ${styles[task.status] ?? ''}`}>{task.status}</span>
        <span className="muted">
          {credits} · <time dateTime={new Date(task.createdAt).toISOString()}>{when}</time>
        </span>
      </div>
      {(text || detail) && (
        <p className={styles.summary} data-testid="history-summary">
          {text && <span className={styles.text}>{text}</span>}
          {detail && (
            <span className="muted">
              {' '}
              {text ? '· ' : ''}
              {detail}
            </span>
          )}
        </p>
      )}
      {task.error && <p className={styles.error}>{task.error}</p>}
      {!finished && (
        <progress className={styles.progress} max={100} value={task.progress} aria-label={`${name} progress`} />
      )}
      {task.outputsExpired && (
        <p className="muted" data-testid="outputs-expired">
          {task.outputsExpiredAt === null
            ? TASK_MESSAGES.outputsExpired
            : TASK_MESSAGES.outputsExpiredOn(new Date(task.outputsExpiredAt).toLocaleDateString())}
        </p>
      )}
      {task.text && <p className={styles.transcript}>{task.text}</p>}
      {/* Videos load nothing until played and show their poster frame meanwhile; audio reads only its length. */}
      {task.outputs.map((o) => (
        <MediaPlayer
          key={o.url}
          kind={o.kind}
          src={o.url}
          label={`${name} result`}
          className={styles.player}
          audio={{ preload: 'metadata' }}
          video={{ preload: 'none', poster: o.posterUrl ?? undefined }}
          img={{ loading: 'lazy' }}
        />
      ))}
      <div className={styles.actions} role="group" aria-label={`${name} from ${when}`}>
        {task.outputs.map((o, i) => {
          const file = downloadName(task.feature, task.createdAt, o, i);
          return (
            <a key={o.url} className={styles.action} href={downloadHref(o, file)} download={file}>
              Download{task.outputs.length > 1 ? ` ${i + 1}` : ''}
            </a>
          );
        })}
        {finished && !confirming && (
          <button
            type="button"
            className={styles.action}
            onClick={() => (rerunCost > 0 ? setConfirming(true) : onRerun(task))}
          >
            {rerunCost > 0 ? 'Run again…' : 'Run again (free)'}
          </button>
        )}
        {shareable && (
          <button type="button" className={styles.action} aria-expanded={sharing} onClick={() => setSharing((s) => !s)}>
            Share
          </button>
        )}
        <button
          type="button"
          className={`${styles.action} ${styles.danger}`}
          onClick={() => onDelete(task)}
          aria-label={`Delete ${name} from ${when}`}
        >
          Delete
        </button>
      </div>
      {confirming && (
        <PaidConfirm
          label={`Run ${name} again?`}
          question={
            <>
              Run it again for <strong>{rerunCost}</strong> {rerunCost === 1 ? 'credit' : 'credits'}?
            </>
          }
          confirm="Yes, run again"
          onConfirm={() => {
            setConfirming(false);
            onRerun(task);
          }}
          onCancel={() => setConfirming(false)}
        />
      )}
      {sharing && shareable && <ShareLinks taskId={task.taskId} name={name} />}
    </li>
  );
}
