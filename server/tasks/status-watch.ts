// What one status stream has to send: the tasks of an account (or one task) that changed since it last looked, woken by
// the feed.
import type { Kysely } from 'kysely';
import type { Schema, TaskRow } from '../db';
import { FINISHED_STATUSES, LIVE_STATUS, type TaskStatus } from '../../src/lib/product-rules';
import type { FeedEvent, StatusFeed } from './status-feed';

const ACTIVE: TaskStatus[] = ['queued', 'running'];
export const isFinished = (task: Pick<TaskRow, 'status'>) => FINISHED_STATUSES.includes(task.status as TaskStatus);
/** What a client sees change: a new status, progress or update time is a new event; the same again is not. */
const signature = (t: TaskRow) => `${t.status}:${t.progress}:${t.updated_at}`;
const isFinishedSignature = (sig: string) => FINISHED_STATUSES.some((status) => sig.startsWith(`${status}:`));
/** Tasks an account stream remembers having sent. */
const SENT_LIMIT = 1000;

export interface WatchOptions {
  db: Kysely<Schema>;
  feed: StatusFeed;
  userId: string;
  /** One task; else every task of the account. */
  taskId?: string;
  /**
   * Last-Event-ID: an account stream resumes with the tasks changed since (a task stream always sends its state first).
   */
  since?: number;
}

/**
 * Subscribes before the first read, so no change falls between them. Notices name a task and the stream reads it; a
 * resync (first read, feed reconnected) reads the one task, or the account's active tasks and those changed since the
 * cursor. With no notice for LIVE_STATUS.heartbeatMs the watched active tasks are read again: a notice lost to a
 * publisher's crash or a Redis outage costs at most that long.
 */
export function watchTasks(o: WatchOptions) {
  const sent = new Map<string, string>();
  const pending = new Set<string>();
  /** Tasks to read again without a notice (a quiet heartbeat, a recheck): nothing new there schedules no recheck. */
  const quiet = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let resync = true;
  let closed = false;
  let cursor = o.since ?? Date.now();
  let wake: (() => void) | undefined;
  const poke = () => wake?.();

  const unsubscribe = o.feed.subscribe(o.userId, (event: FeedEvent) => {
    if (event.kind === 'resync') resync = true;
    else if (!o.taskId || event.taskId === o.taskId) pending.add(event.taskId);
    else return;
    poke();
  });

  const mine = () => o.db.selectFrom('tasks').selectAll().where('user_id', '=', o.userId);
  async function readResync(): Promise<TaskRow[]> {
    if (o.taskId) return mine().where('id', '=', o.taskId).execute();
    const from = cursor - LIVE_STATUS.clockSkewMs;
    return mine()
      .where((eb) => eb.or([eb('status', 'in', ACTIVE), eb('updated_at', '>=', from)]))
      .orderBy('updated_at', 'desc')
      .limit(LIVE_STATUS.resyncLimit)
      .execute();
  }
  const readIds = (ids: string[]) => (ids.length ? mine().where('id', 'in', ids).execute() : Promise.resolve([]));
  /** Active tasks this stream has shown: read again on a quiet heartbeat. */
  const watchedActive = () =>
    [...sent].filter(([, sig]) => sig.startsWith('queued:') || sig.startsWith('running:')).map(([id]) => id);

  function changedOf(rows: TaskRow[]): TaskRow[] {
    const changed = rows.filter((t) => sent.get(t.id) !== signature(t)).sort((a, b) => a.updated_at - b.updated_at);
    for (const t of changed) sent.set(t.id, signature(t));
    // A long-lived account stream forgets the oldest finished tasks (they change no more; a re-read within the skew
    // window may send one again, which clients take as the same state).
    if (sent.size > SENT_LIMIT)
      for (const [id, sig] of sent) if (sent.size > SENT_LIMIT / 2 && isFinishedSignature(sig)) sent.delete(id);
    return changed;
  }

  /** A notice that showed nothing new may have overtaken its commit (Redis): look again shortly. */
  function recheck(ids: string[]) {
    if (o.feed.kind !== 'redis' || ids.length === 0) return;
    for (const delay of LIVE_STATUS.recheckMs) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        // Read again as quiet ones: a recheck that still shows nothing schedules no more.
        for (const id of ids) quiet.add(id);
        poke();
      }, delay);
      timers.add(timer);
    }
  }

  return {
    /**
     * Resolves with the changed tasks, oldest change first, and the event id to send with each; [] when a heartbeat is
     * due with nothing new; null once closed (or the one task is gone).
     */
    async changes(): Promise<Array<{ task: TaskRow; id: string }> | null> {
      for (;;) {
        if (closed) return null;
        let rows: TaskRow[] | null = null;
        let noticed: string[] = [];
        if (resync) {
          resync = false;
          pending.clear();
          rows = await readResync();
        } else if (pending.size > 0 || quiet.size > 0) {
          noticed = [...pending];
          const ids = [...new Set([...noticed, ...quiet])];
          pending.clear();
          quiet.clear();
          rows = await readIds(ids);
        }
        // The one task was deleted: nothing more will come.
        if (rows && o.taskId && rows.length === 0) closed = true;
        if (closed) return null;
        if (rows) {
          const changed = changedOf(rows);
          if (changed.length > 0) {
            return changed.map((task) => {
              cursor = Math.max(cursor, task.updated_at);
              return { task, id: String(cursor) };
            });
          }
          recheck(noticed);
          continue;
        }
        const woke = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), LIVE_STATUS.heartbeatMs);
          wake = () => {
            clearTimeout(timer);
            resolve(true);
          };
        });
        wake = undefined;
        if (!woke) {
          for (const id of watchedActive()) quiet.add(id);
          return [];
        }
      }
    },
    close() {
      if (closed) return;
      closed = true;
      unsubscribe();
      for (const timer of timers) clearTimeout(timer);
      poke();
    },
  };
}

export type TaskWatch = ReturnType<typeof watchTasks>;
