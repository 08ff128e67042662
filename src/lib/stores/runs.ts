// The account's runs as last heard (submit and re-run answers, history pages, the live status stream or its polling
// fallback): run cards and the history read each task from here, and the balance is read again when a run starts,
// ends or is canceled.
import { atom } from 'nanostores';
import { playgroundApi, type TaskView } from '../api';
import { RUN_FOLLOW, type TaskStatus } from '../product-rules';
import { $user, refreshUser } from './signed-in';

export interface RunEntry {
  view: TaskView;
  /** When this browser first saw it running (its clock, for the card's time left); null before. */
  runningSince: number | null;
  /** Why its state can no longer be had (the network is down), once following it gave up; null while followed. */
  lost: string | null;
}

export const $runs = atom<Record<string, RunEntry>>({});

const setEntry = (taskId: string, entry: RunEntry) => $runs.set({ ...$runs.get(), [taskId]: entry });

const ORDER: Record<TaskStatus, number> = { queued: 0, running: 1, succeeded: 2, failed: 2, canceled: 2 };
export const isActiveView = (view: Pick<TaskView, 'status'>) => view.status === 'queued' || view.status === 'running';

/** A view read earlier (a history page answered after the stream's newer event) never replaces a newer one. */
function isOlder(view: TaskView, known: TaskView): boolean {
  const step = ORDER[view.status] - ORDER[known.status];
  return step < 0 || (step === 0 && isActiveView(view) && view.progress < known.progress);
}

/** Stop functions of the runs being followed, by task id. */
const following = new Map<string, () => void>();

/**
 * Records what is known of a task. An unfinished one is followed until it ends; when a run this page saw unfinished
 * ends (charged, or refunded), the balance is read again.
 */
export function putRun(view: TaskView): void {
  const known = $runs.get()[view.taskId];
  if (known && (known.view === view || isOlder(view, known.view))) return;
  const running = view.status === 'running';
  setEntry(view.taskId, {
    view,
    runningSince: known?.runningSince ?? (running ? Date.now() : null),
    lost: isActiveView(view) ? (known?.lost ?? null) : null,
  });
  if (isActiveView(view)) {
    if (!known?.lost) follow(view.taskId);
    return;
  }
  following.get(view.taskId)?.();
  if (known && isActiveView(known.view)) void refreshUser();
}

/** Records views read together (a history page), leaving newer ones alone. */
export function putRuns(views: readonly TaskView[]): void {
  for (const view of views) putRun(view);
}

/** A run just submitted or run again: it is followed from here, and its hold shows in the balance at once. */
export function runStarted(view: TaskView): void {
  putRun(view);
  void refreshUser();
}

/** Asks the server to cancel; the answer (the canceled task) ends the run here, which reads the balance again. */
export async function cancelRun(taskId: string): Promise<void> {
  try {
    putRun(await playgroundApi.cancel(taskId));
  } catch {
    // Already finished: its last event or poll tells the real state.
  }
}

function markLost(taskId: string, error: unknown): void {
  const entry = $runs.get()[taskId];
  if (!entry) return;
  const why = error instanceof Error ? error.message : 'Network error';
  setEntry(taskId, { ...entry, lost: RUN_FOLLOW.lost(why) });
}

/** Follows an unfinished run until it ends; the code that does it loads with the first run, not with the page. */
function follow(taskId: string): void {
  if (following.has(taskId) || typeof window === 'undefined') return;
  // Held until the follower starts, so a second put does not start another.
  let stop: () => void = () => following.delete(taskId);
  following.set(taskId, () => stop());
  import('./runs-follow').then(
    (m) => {
      if (!following.has(taskId)) return;
      stop = m.followRun(taskId, {
        put: putRun,
        lost: (error) => markLost(taskId, error),
        done: () => following.delete(taskId),
      });
    },
    (error: unknown) => markLost(taskId, error),
  );
}

/** Forgets every run and stops following them (another account signed in, or none). */
export function resetRuns(): void {
  for (const stop of [...following.values()]) stop();
  $runs.set({});
}

let owner: string | null | undefined;
$user.subscribe((user) => {
  const id = user === undefined ? undefined : (user?.userId ?? null);
  if (id === undefined || id === owner) return;
  if (owner !== undefined) resetRuns();
  owner = id;
});
