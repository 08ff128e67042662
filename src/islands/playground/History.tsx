// The history panel: this screen's recent tasks from get_list, each with its result, download and delete.
import { useCallback, useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { useHydratedStore } from '../shared/useHydratedStore';
import { TASK_LIMITS, type Feature } from '../../lib/spec';
import { $loggedIn } from '../../lib/stores/session';
import { playgroundApi, type TaskView } from './api';
import { $historyTick } from './history-store';
import { downloadName, ExpiredOutputs, MediaPlayer } from './TaskPanel';
import { trackAction } from './track';
import styles from './playground.module.css';

const FEATURE_NAMES: Partial<Record<Feature, string>> = {
  'tts-common': 'Speech · Common',
  'tts-pro': 'Speech · Pro',
  'tts-clone': 'Speech · cloned voice',
  'voice-clone': 'Voice clone',
  dialogue: 'Dialogue',
  'image-to-video': 'Image to video',
  'text-to-video': 'Text to video',
  'character-to-video': 'Character to video',
  'talking-face': 'Lip sync',
  'talking-image': 'Talking image',
  'video-translate-lip-sync': 'Translate · lip sync',
  'video-translate-voice-only': 'Translate · voice only',
  'tryon-clothes': 'Clothes changer',
};

/** One feature filters on the server; several (speech: common, pro, clone) filter the newest page here. */
async function fetchHistory(features: readonly Feature[]): Promise<TaskView[]> {
  const single = features.length === 1 ? features[0] : undefined;
  const { list } = await playgroundApi.list({ page: 1, pageSize: single ? TASK_LIMITS.defaultPageSize : TASK_LIMITS.maxPageSize, feature: single });
  return list.filter((t) => (features as readonly string[]).includes(t.feature)).slice(0, TASK_LIMITS.defaultPageSize);
}

export default function History({ features, screen }: { features: readonly Feature[]; screen: string }) {
  // The pre-rendered HTML shows no history (no session yet): hydrate as that, then show the live state.
  const loggedIn = useHydratedStore($loggedIn, false);
  const tick = useStore($historyTick);
  const [items, setItems] = useState<TaskView[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    let live = true;
    fetchHistory(features).then(
      (list) => {
        if (!live) return;
        setItems(list);
        setError(null);
      },
      (e: unknown) => live && setError(`${e instanceof Error ? e.message : 'Could not load the history'}. Use Refresh to try again.`),
    );
    return () => {
      live = false;
    };
  }, [features]);

  useEffect(() => (loggedIn ? load() : undefined), [loggedIn, tick, load]);

  const remove = async (task: TaskView) => {
    try {
      await playgroundApi.remove(task.taskId);
      trackAction(screen, 'delete', 'click', { taskId: task.taskId });
      setItems((list) => list?.filter((t) => t.taskId !== task.taskId) ?? null);
    } catch (e) {
      setError(`${e instanceof Error ? e.message : 'Delete failed'}. Try again.`);
    }
  };

  if (!loggedIn) return null;
  return (
    <section className={styles.history} aria-labelledby="history-title">
      <div className={styles.historyHead}>
        <h2 id="history-title">History</h2>
        <button type="button" className="button button--ghost" onClick={() => load()}>
          Refresh
        </button>
      </div>
      {error && (
        <p role="alert" className={styles.fieldError}>
          {error}
        </p>
      )}
      {items && items.length === 0 && <p className="muted">Nothing yet. Your results appear here for 7 days.</p>}
      <ul className={styles.historyList} data-testid="history">
        {items?.map((t) => (
          <li key={t.taskId} className={styles.historyItem} data-task-id={t.taskId}>
            <div className={styles.historyMeta}>
              <strong>{FEATURE_NAMES[t.feature as Feature] ?? t.feature}</strong>
              <span className="muted">
                {new Date(t.createdAt).toLocaleString()} · {t.status} · {t.credits} {t.credits === 1 ? 'credit' : 'credits'}
              </span>
              {t.error && <span className={styles.fieldError}>{t.error}</span>}
            </div>
            <ExpiredOutputs task={t} />
            {t.outputs.map((o) => (
              <div key={o.url} className={styles.output}>
                <MediaPlayer output={o} label={`${FEATURE_NAMES[t.feature as Feature] ?? t.feature} result`} />
                <a className="button button--ghost" href={o.url} download={downloadName(o, t.taskId)}>
                  Download
                </a>
              </div>
            ))}
            <button type="button" className="button button--ghost" onClick={() => void remove(t)} aria-label={`Delete ${FEATURE_NAMES[t.feature as Feature] ?? t.feature} task from ${new Date(t.createdAt).toLocaleTimeString()}`}>
              Delete
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
