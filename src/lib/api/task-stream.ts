// The playground's live status: one account stream (Server-Sent Events over fetch, with the session token) shared by
// every run and history item.
import { LIVE_STATUS } from '../product-rules';
import { readEvents } from '../sdk/sse';
import { apiBase, authHeaders } from './client';
import type { TaskView } from './types';

interface Follower {
  onView(view: TaskView): void;
  /** The stream cannot be had (refused, or it keeps breaking): poll instead. */
  onFail(): void;
}

/** Consecutive breaks without an event before the followers are told to poll. */
const MAX_BREAKS = 2;
/** Views kept for followers that subscribe just after their task's event went by. */
const KEEP_VIEWS = 100;

const followers = new Map<string, Set<Follower>>();
const latest = new Map<string, TaskView>();
let connection: AbortController | null = null;
let lastEventId: string | null = null;

function remember(view: TaskView) {
  latest.delete(view.taskId);
  latest.set(view.taskId, view);
  if (latest.size > KEEP_VIEWS) latest.delete(latest.keys().next().value!);
}

function failAll() {
  const all = [...followers.values()].flatMap((set) => [...set]);
  followers.clear();
  for (const f of all) f.onFail();
}

/**
 * Keeps one stream open while anyone follows a task: the events of every task of the account arrive on it, each to
 * the followers of its task. A dropped stream reconnects with Last-Event-ID (the server sends what changed meanwhile);
 * a refused one (429 when the account has too many open, 503 while a server restarts) or one that keeps breaking
 * sends everyone back to polling. fetch rather than EventSource: the session travels in the token header.
 */
async function connect(controller: AbortController): Promise<void> {
  let breaks = 0;
  while (!controller.signal.aborted && followers.size > 0) {
    let heard = false;
    try {
      const headers: Record<string, string> = { ...authHeaders(), accept: 'text/event-stream' };
      if (lastEventId) headers['last-event-id'] = lastEventId;
      const res = await fetch(`${apiBase()}${LIVE_STATUS.playgroundPath}`, { headers, signal: controller.signal });
      if (res.status !== 200 || !res.body) {
        void res.body?.cancel();
        break;
      }
      for await (const e of readEvents(res.body, controller.signal)) {
        lastEventId = e.id ?? lastEventId;
        if (e.event !== LIVE_STATUS.event) continue;
        heard = true;
        const view = JSON.parse(e.data) as TaskView;
        remember(view);
        for (const f of [...(followers.get(view.taskId) ?? [])]) f.onView(view);
      }
    } catch {
      // Broken or aborted: counted below.
    }
    if (controller.signal.aborted) return;
    breaks = heard ? 1 : breaks + 1;
    if (breaks >= MAX_BREAKS) break;
    await new Promise((r) => setTimeout(r, LIVE_STATUS.clientRetryMs));
  }
  if (connection === controller) connection = null;
  if (!controller.signal.aborted) failAll();
}

/**
 * Calls `onView` with each new state of the task as the server pushes it (the last one already seen first), or
 * `onFail` once if no stream can be had. Answers the function that stops following.
 */
export function followTask(taskId: string, onView: (view: TaskView) => void, onFail: () => void): () => void {
  const follower: Follower = { onView, onFail };
  let set = followers.get(taskId);
  if (!set) followers.set(taskId, (set = new Set()));
  set.add(follower);
  if (!connection) {
    connection = new AbortController();
    void connect(connection);
  }
  const seen = latest.get(taskId);
  if (seen) queueMicrotask(() => set.has(follower) && onView(seen));
  return () => {
    set.delete(follower);
    if (set.size === 0 && followers.get(taskId) === set) followers.delete(taskId);
    if (followers.size === 0 && connection) {
      connection.abort();
      connection = null;
    }
  };
}

const isRunning = (task: TaskView) => task.status === 'queued' || task.status === 'running';

/**
 * Follows a task until it finishes (answers its final view), or null once the stream fails (then poll) or the caller
 * leaves: each follow puts its leave function in `following`, which a screen going away calls.
 */
export function untilFinished(
  first: TaskView,
  onView: (task: TaskView) => void,
  following: Set<() => void>,
): Promise<TaskView | null> {
  return new Promise((resolve) => {
    const stop = followTask(
      first.taskId,
      (task) => {
        onView(task);
        if (isRunning(task)) return;
        end();
        resolve(task);
      },
      () => {
        end();
        resolve(null);
      },
    );
    const end = () => {
      stop();
      following.delete(leave);
    };
    const leave = () => {
      end();
      resolve(null);
    };
    following.add(leave);
  });
}
