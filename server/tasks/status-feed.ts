// The live status feed: every task status or progress write publishes {userId, taskId}; API instances hear it and wake their streams.
import type { Kysely } from 'kysely';
import type { Schema, TaskRow } from '../db';
import type { Logger } from '../log';
import { pgStatusFeed } from './status-feed-pg';
import { redisStatusFeed } from './status-feed-redis';

/** What a notice says: this account's task changed; the stream reads it from the database (the notice carries no state). */
export interface StatusNotice {
  userId: string;
  taskId: string;
}

/** A notice for one task, or `resync`: the feed (re)connected and notices may have been missed, so every stream re-reads. */
export type FeedEvent = { kind: 'task'; taskId: string } | { kind: 'resync' };

export type Publish = (executor: Kysely<Schema>, task: Pick<TaskRow, 'id' | 'user_id'>) => Promise<void>;

export interface StatusFeed {
  /** Which transport carries notices: this process only, PostgreSQL NOTIFY or Redis pub/sub. */
  readonly kind: 'memory' | 'postgres' | 'redis';
  /**
   * Called by every status or progress write, inside its transaction when it has one: on PostgreSQL the NOTIFY goes
   * out with the commit (and not at all on rollback). Throws only inside a PostgreSQL transaction (which is aborted then
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

export const encodeNotice = (task: Pick<TaskRow, 'id' | 'user_id'>) => JSON.stringify({ userId: task.user_id, taskId: task.id });

export function decodeNotice(payload: string | undefined): StatusNotice | null {
  if (!payload) return null;
  try {
    const value = JSON.parse(payload) as Partial<StatusNotice>;
    return typeof value.userId === 'string' && typeof value.taskId === 'string' ? { userId: value.userId, taskId: value.taskId } : null;
  } catch {
    return null;
  }
}

/**
 * One process (SQLite, embedded): notices go straight to this process's streams. Published inside a SQLite
 * transaction, a stream's read waits for the one connection, so it sees the commit (or, after a rollback, no change).
 */
export function memoryStatusFeed(): StatusFeed {
  const subscribers = feedSubscribers();
  return {
    kind: 'memory',
    publish: async (_executor, task) => subscribers.deliver({ userId: task.user_id, taskId: task.id }),
    subscribe: (userId, listener) => subscribers.add(userId, listener),
    connected: () => true,
    close: async () => undefined,
  };
}

export interface StatusFeedOptions {
  engine: 'sqlite' | 'postgres';
  /** The database's own connection settings (the listener opens one session of its own). */
  connectionString: string;
  searchPath?: string;
  redis: { url: string; prefix: string } | null;
  log: Logger;
}

/** Redis pub/sub when REDIS_URL is set, else PostgreSQL LISTEN/NOTIFY on PostgreSQL, else this process alone. */
export function createStatusFeed(o: StatusFeedOptions): StatusFeed {
  if (o.redis) return redisStatusFeed({ ...o.redis, log: o.log });
  if (o.engine === 'postgres') return pgStatusFeed({ connectionString: o.connectionString, log: o.log });
  return memoryStatusFeed();
}

/**
 * Runs a status write and publishes its task in one transaction (the NOTIFY commits with it); without a feed, the
 * write alone. `write` answers the written row, or undefined when it changed nothing (then nothing is published).
 */
export async function writeAndPublish<T extends Pick<TaskRow, 'id' | 'user_id'>>(
  db: Kysely<Schema>,
  publish: Publish | undefined,
  write: (executor: Kysely<Schema>) => Promise<T | undefined>,
): Promise<T | undefined> {
  if (!publish) return write(db);
  return db.transaction().execute(async (trx) => {
    const row = await write(trx);
    if (row) await publish(trx, row);
    return row;
  });
}
