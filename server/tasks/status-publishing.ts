// Wires the status feed into the task system: submits and finishes publish in their transaction, claims, progress and
// hand-backs right after.
import type { Kysely } from 'kysely';
import type { Schema, TaskRow } from '../db';
import { wrapEngines, type Engine, type EngineRegistry } from '../engines';
import type { Logger } from '../log';
import { createStatusFeed, type StatusFeed } from './status-feed';
import { statusStreams } from './status-streams';
import { watchTasks, type WatchOptions } from './status-watch';

interface Runs {
  claim(id: string): Promise<{ task: TaskRow; takenOver: boolean } | null>;
  claimNext(): Promise<TaskRow | null>;
  run(task: TaskRow, signal: AbortSignal): Promise<void>;
  recover(maxAttempts?: number): Promise<{ resumed: number; failed: number }>;
}

export interface LiveStatusOptions {
  db: Kysely<Schema>;
  engine: 'sqlite' | 'postgres';
  databaseUrl: string;
  redis: { url: string; prefix: string } | null;
  log: Logger;
}

/**
 * The feed, the open streams and the wrappers that make the task system publish. Submit and finish already call hooks
 * inside their transactions (onStored, onFinished), so their notices commit with them. Claims, progress, recoveries
 * and hand-backs are single-statement writes: their notice follows the commit at once, and a process that dies between
 * the two loses only a notice the streams' heartbeat re-read makes up for.
 */
export function liveStatus(o: LiveStatusOptions) {
  // The listener needs a URL of its own; a PostgreSQL database opened without one (tests) is served in-process.
  const postgresUrl = /^postgres(ql)?:\/\//.test(o.databaseUrl) ? o.databaseUrl : null;
  const feed: StatusFeed = createStatusFeed({
    engine: o.engine === 'postgres' && postgresUrl ? 'postgres' : 'sqlite',
    connectionString: postgresUrl ?? '',
    redis: o.redis,
    log: o.log,
  });
  const streams = statusStreams();
  /** Owner of each task running in this process, for its engines' progress notices. */
  const owners = new Map<string, string>();
  const published = async (task: Pick<TaskRow, 'id' | 'user_id'> | null | undefined) => {
    if (task) await feed.publish(o.db, task);
  };

  const wrapEngine = (engine: Engine): Engine => ({
    ...engine,
    run: (feature, input, ctx) =>
      engine.run(feature, input, {
        ...ctx,
        async progress(percent) {
          await ctx.progress(percent);
          const userId = owners.get(ctx.taskId);
          if (userId) await published({ id: ctx.taskId, user_id: userId });
        },
      }),
  });

  return {
    feed,
    streams,
    watch: (w: Omit<WatchOptions, 'db' | 'feed'>) => watchTasks({ ...w, db: o.db, feed }),
    /** For hooks that run inside a task's transaction (submit's onStored, finish's onFinished). */
    publish: feed.publish,
    engines: <R extends EngineRegistry>(registry: R): R => wrapEngines(registry, wrapEngine),
    runs<S extends Runs>(service: S): S {
      return {
        ...service,
        async claim(id: string) {
          const claimed = await service.claim(id);
          await published(claimed?.task);
          return claimed;
        },
        async claimNext() {
          const task = await service.claimNext();
          await published(task);
          return task;
        },
        async run(task: TaskRow, signal: AbortSignal) {
          owners.set(task.id, task.user_id);
          try {
            await service.run(task, signal);
          } finally {
            owners.delete(task.id);
          }
        },
        /**
         * Tasks a crash left running are queued again (or failed) by a restart: each is published after the recovery,
         * so a stream that showed one running sees it go back to the queue, not only when it next runs.
         */
        async recover(maxAttempts?: number) {
          const stranded = await o.db
            .selectFrom('tasks')
            .select(['id', 'user_id'])
            .where('status', '=', 'running')
            .execute();
          const recovered = await service.recover(maxAttempts);
          for (const task of stranded) await published(task);
          return recovered;
        },
      };
    },
    handBack(handBack: (task: TaskRow) => Promise<boolean>) {
      return async (task: TaskRow) => {
        const done = await handBack(task);
        if (done) await published(task);
        return done;
      };
    },
    /** Ends every stream (the drain), then the feed's connections. */
    async close() {
      streams.close();
      await feed.close();
    },
  };
}

export type LiveStatus = ReturnType<typeof liveStatus>;
