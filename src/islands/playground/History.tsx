// The history panel: this screen's tasks (or all), searched and filtered on the server; re-run, share, delete with
// undo; ?task= opens one.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { TextInput } from '../shared/TextField';
import { useHydratedStore } from '../shared/useHydratedStore';
import {
  featureLabel,
  HISTORY,
  HISTORY_MESSAGES,
  HISTORY_TASK_PARAM,
  TASK_LIMITS,
  type Feature,
} from '../../lib/product-rules';
import { historyApi } from '../../lib/api';
import { $loggedIn } from '../../lib/stores/signed-in';
import { $runs, putRun, putRuns, runStarted } from '../../lib/stores/runs';
import { playgroundApi, type TaskView } from './api';
import { $historyTick } from './history-store';
import HistoryItem from './HistoryItem';
import { trackAction } from './track';
import styles from './History.module.css';

/** "screen": every feature of this screen; "all": every feature; else one feature. */
type Filter = 'screen' | 'all' | Feature;

const failure = (e: unknown, fallback: string) => (e instanceof Error ? e.message : fallback);

export default function History({ features, screen }: { features: readonly Feature[]; screen: string }) {
  // The pre-rendered HTML shows no history (no session yet): hydrate as that, then show the live state.
  const loggedIn = useHydratedStore($loggedIn, false);
  const tick = useStore($historyTick);
  const runs = useStore($runs);
  const [items, setItems] = useState<TaskView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState<Filter>('screen');
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [refresh, setRefresh] = useState(0);
  const [pending, setPending] = useState<TaskView[]>([]);
  // The task ?task= names: shown first, even when it is older than the newest page.
  const [opened, setOpened] = useState<TaskView | null>(null);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  // Typing settles before the server is asked.
  useEffect(() => {
    const timer = setTimeout(() => setQuery(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);

  useEffect(() => {
    if (!loggedIn) return;
    let live = true;
    const wanted = filter === 'screen' ? features : filter === 'all' ? [] : [filter];
    playgroundApi
      .list({
        page: 1,
        pageSize: TASK_LIMITS.defaultPageSize,
        ...(wanted.length ? { features: wanted } : {}),
        ...(query ? { q: query } : {}),
      })
      .then(
        ({ list }) => {
          if (!live) return;
          putRuns(list);
          setItems(list);
          setError(null);
        },
        (e: unknown) => live && setError(`${failure(e, 'Could not load the history')}. Use Refresh to try again.`),
      );
    return () => {
      live = false;
    };
  }, [loggedIn, tick, refresh, filter, query, features]);

  // ?task=<id> (billing rows link here): that task is shown first, highlighted and scrolled to.
  useEffect(() => {
    if (!loggedIn) return;
    const id = new URLSearchParams(location.search).get(HISTORY_TASK_PARAM);
    if (!id) return;
    playgroundApi.poll(id).then(
      (task) => (putRun(task), setOpened(task)),
      (e: unknown) => setError(failure(e, 'Could not open the task')),
    );
  }, [loggedIn]);
  const openedId = opened?.taskId;
  // The run a Run again started: scrolled to and focused once it is listed (it is the newest, so first).
  const [ranAgain, setRanAgain] = useState<string | null>(null);
  useEffect(() => {
    if (!ranAgain) return;
    const el = document.querySelector<HTMLElement>(`[data-task-id="${CSS.escape(ranAgain)}"]`);
    el?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    el?.focus({ preventScroll: true });
  }, [ranAgain]);
  useEffect(() => {
    if (!openedId) return;
    const el = document.querySelector<HTMLElement>(`[data-task-id="${CSS.escape(openedId)}"]`);
    el?.scrollIntoView({ block: 'center' });
    el?.focus({ preventScroll: true });
  }, [openedId]);

  // Every item shows the account's runs store's entry for it, which the run cards read too: an unfinished one is
  // followed there (status stream, or polls) and the balance follows its end.
  const listed = opened ? [opened, ...(items ?? []).filter((t) => t.taskId !== opened.taskId)] : items;

  const commitDelete = useCallback(
    async (task: TaskView) => {
      timers.current.delete(task.taskId);
      setPending((p) => p.filter((t) => t.taskId !== task.taskId));
      try {
        await playgroundApi.remove(task.taskId);
        trackAction(screen, 'delete', 'click', { taskId: task.taskId });
        setItems((list) => list?.filter((t) => t.taskId !== task.taskId) ?? null);
        setOpened((t) => (t?.taskId === task.taskId ? null : t));
      } catch (e) {
        setError(`${failure(e, 'Delete failed')}. Try again.`);
      }
    },
    [screen],
  );
  // Leaving the page (or the screen) does not undo a delete: whatever is pending is deleted then, by a request that
  // outlives the page.
  useEffect(() => {
    const all = timers.current;
    const flush = () => {
      for (const [id, timer] of all) {
        clearTimeout(timer);
        void playgroundApi.remove(id, { keepalive: true }).catch(() => undefined);
      }
      all.clear();
    };
    addEventListener('pagehide', flush);
    return () => {
      removeEventListener('pagehide', flush);
      flush();
    };
  }, []);

  const remove = (task: TaskView) => {
    setPending((p) => [...p, task]);
    timers.current.set(
      task.taskId,
      setTimeout(() => void commitDelete(task), HISTORY.undoMs),
    );
  };
  const undo = (task: TaskView) => {
    clearTimeout(timers.current.get(task.taskId));
    timers.current.delete(task.taskId);
    setPending((p) => p.filter((t) => t.taskId !== task.taskId));
  };
  const rerun = async (task: TaskView) => {
    setError(null);
    try {
      const fresh = await historyApi.rerun(task.taskId);
      trackAction(screen, 'rerun', 'click', { taskId: task.taskId });
      setItems((list) => [fresh, ...(list ?? [])]);
      // The hold leaves the balance at once; the new run is listed first, so it is brought into view there.
      runStarted(fresh);
      setRanAgain(fresh.taskId);
    } catch (e) {
      setError(failure(e, 'Could not run it again'));
    }
  };

  if (!loggedIn) return null;
  const hidden = new Set(pending.map((t) => t.taskId));
  const shown = listed?.filter((t) => !hidden.has(t.taskId)).map((t) => runs[t.taskId]?.view ?? t);
  return (
    <section className={styles.history} aria-labelledby="history-title">
      <div className={`spread ${styles.head}`}>
        <h2 id="history-title">History</h2>
        <button type="button" className={styles.action} onClick={() => setRefresh((n) => n + 1)}>
          Refresh
        </button>
      </div>
      <div className={styles.tools} role="search">
        <TextInput
          type="search"
          className={styles.search}
          value={typed}
          maxLength={HISTORY.searchMaxLength}
          onValue={setTyped}
          placeholder="Search prompts and voices"
          aria-label="Search history"
        />
        <select
          className={styles.filter}
          value={filter}
          onChange={(e) => setFilter(e.target.value as Filter)}
          aria-label="Show"
        >
          <option value="screen">{features.length > 1 ? 'This screen' : featureLabel(features[0] ?? '')}</option>
          {features.length > 1 &&
            features.map((f) => (
              <option key={f} value={f}>
                {featureLabel(f)}
              </option>
            ))}
          <option value="all">All features</option>
        </select>
      </div>
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
      <div role="status" className={styles.undoBar}>
        {pending.map((t) => (
          <p key={t.taskId} className={styles.undo}>
            {HISTORY_MESSAGES.deleted}: {featureLabel(t.feature)}
            <button type="button" className={styles.action} onClick={() => undo(t)}>
              {HISTORY_MESSAGES.undo}
            </button>
          </p>
        ))}
      </div>
      {shown && shown.length === 0 && (
        <p className="muted">
          {query || filter !== 'screen' ? 'Nothing matches.' : 'Nothing yet. Your results appear here for 7 days.'}
        </p>
      )}
      <ul className={styles.list} data-testid="history">
        {shown?.map((t) => (
          <HistoryItem
            key={t.taskId}
            task={t}
            highlighted={t.taskId === openedId || t.taskId === ranAgain}
            onRerun={(x) => void rerun(x)}
            onDelete={remove}
          />
        ))}
      </ul>
    </section>
  );
}
