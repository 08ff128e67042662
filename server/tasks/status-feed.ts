// The live status feed: every task status or progress write publishes {userId, taskId}; API instances hear it and wake
// their streams.
import type { Kysely } from 'kysely';
import type { Schema, TaskRow } from '../db';
import type { Logger } from '../log';
import { pgStatusFeed } from './status-feed-pg';
import { redisStatusFeed } from './status-feed-redis';
import { feedSubscribers, type Publish, type StatusFeed } from './status-feed-shared';

export type { FeedEvent, Publish, StatusFeed, StatusNotice } from './status-feed-shared';

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
