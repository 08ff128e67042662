// What every live status feed transport shares: the feed's shape, the notice on the wire and the listeners of this
// process.
import type { Kysely } from 'kysely';
import type { Schema, TaskRow } from '../db';

/**
 * What a notice says: this account's task changed; the stream reads it from the database (the notice carries no state).
 */
export interface StatusNotice {
  userId: string;
  taskId: string;
}

/**
 * A notice for one task, or `resync`: the feed (re)connected and notices may have been missed, so every stream
 * re-reads.
 */
export type FeedEvent = { kind: 'task'; taskId: string } | { kind: 'resync' };

export type Publish = (executor: Kysely<Schema>, task: Pick<TaskRow, 'id' | 'user_id'>) => Promise<void>;

export interface StatusFeed {
  /** Which transport carries notices: this process only, PostgreSQL NOTIFY or Redis pub/sub. */
  readonly kind: 'memory' | 'postgres' | 'redis';
  /**
   * Called by every status or progress write, inside its transaction when it has one: on PostgreSQL the NOTIFY goes out
   * with the commit (and not at all on rollback). Throws only inside a PostgreSQL transaction (which is aborted then
   * anyway); elsewhere a notice that could not be sent is logged, and the streams' periodic re-reads find its change.
   */
  publish: Publish;
  /** Hears notices of one account; starts the listener on first use. Answers the unsubscribe. */
  subscribe(userId: string, listener: (event: FeedEvent) => void): () => void;
  /** Whether the listener is connected now (always true in memory). */
  connected(): boolean;
  close(): Promise<void>;
}

/** Where notices go to the streams of this process, by account: what every transport shares. */
export function feedSubscribers() {
  const byUser = new Map<string, Set<(event: FeedEvent) => void>>();
  return {
    add(userId: string, listener: (event: FeedEvent) => void): () => void {
      let set = byUser.get(userId);
      if (!set) byUser.set(userId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && byUser.get(userId) === set) byUser.delete(userId);
      };
    },
    deliver(notice: StatusNotice): void {
      for (const listener of byUser.get(notice.userId) ?? []) listener({ kind: 'task', taskId: notice.taskId });
    },
    resync(): void {
      for (const set of byUser.values()) for (const listener of set) listener({ kind: 'resync' });
    },
    get size() {
      return byUser.size;
    },
  };
}

export const encodeNotice = (task: Pick<TaskRow, 'id' | 'user_id'>) =>
  JSON.stringify({ userId: task.user_id, taskId: task.id });

export function decodeNotice(payload: string | undefined): StatusNotice | null {
  if (!payload) return null;
  try {
    const value = JSON.parse(payload) as Partial<StatusNotice>;
    return typeof value.userId === 'string' && typeof value.taskId === 'string'
      ? { userId: value.userId, taskId: value.taskId }
      : null;
  } catch {
    return null;
  }
}
