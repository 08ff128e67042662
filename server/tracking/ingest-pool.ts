// Where sealed batches are opened and stored: on an SQLite file, in a worker thread (./ingest-thread) with its own
// connection, so checking, decrypting and committing use the second core; in memory or on PostgreSQL, in this thread.
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppDatabase } from '../db';
import { AppError } from '../http/errors';
import type { BatchCounts } from './group-commit';
import { checkedRows, type IngestJob } from './ingest';
import type { TrackingStore } from './store';
import type { VerifiedToken } from './verified-tokens';

export type IngestReply =
  | { id: number; counts: BatchCounts }
  | { id: number; refusal: { status: ContentfulStatusCode; code: number; message: string } }
  | { id: number; failure: string };

/**
 * The thread's module: the TypeScript source through tsx when this file runs as source (tests), the built file next
 * to the server bundle otherwise (scripts/build-server.mjs builds both).
 */
function threadModule(): { url: URL; execArgv: string[] } {
  if (import.meta.url.endsWith('.ts'))
    return { url: new URL('./ingest-thread.ts', import.meta.url), execArgv: ['--import', 'tsx'] };
  return { url: new URL('./tracking-ingest.mjs', import.meta.url), execArgv: [] };
}

/** A job as posted to the thread: the batch, its id for the reply, and its key in hex. */
export type ThreadJob = IngestJob & { id: number; ak: string };

/**
 * One ingest thread on the SQLite file `file`: each job answers its batch's counts, or rejects with its refusal.
 * Jobs and replies cross in lists, one message per event-loop turn each way: a message wakes the other thread, which
 * cost more than the batch itself when every request sent its own.
 */
export function ingestThread(file: string) {
  const pending = new Map<number, { resolve(counts: BatchCounts): void; reject(error: unknown): void }>();
  let nextId = 0;
  let worker: Worker | null = null;
  let outbox: ThreadJob[] = [];
  let closed = false;

  function start(): Worker {
    const { url, execArgv } = threadModule();
    const thread = new Worker(url, { workerData: { file }, execArgv });
    // Never what keeps the process alive: every answered batch is already committed (server/lifecycle/drain.ts).
    thread.unref();
    thread.on('message', (replies: IngestReply[]) => {
      for (const reply of replies) {
        const job = pending.get(reply.id);
        if (!job) continue;
        pending.delete(reply.id);
        if ('counts' in reply) job.resolve(reply.counts);
        else if ('refusal' in reply)
          job.reject(new AppError(reply.refusal.status, reply.refusal.code, reply.refusal.message));
        else job.reject(new Error(`tracking ingest thread: ${reply.failure}`));
      }
    });
    // A thread that stops fails what it held; the next batch starts a new one.
    const stopped = (error: unknown) => {
      if (worker === thread) worker = null;
      for (const job of pending.values()) job.reject(error);
      pending.clear();
    };
    thread.on('error', stopped);
    thread.on('exit', (code) => stopped(new Error(`tracking ingest thread stopped (exit code ${code})`)));
    return thread;
  }

  const fail = (id: number, error: unknown) => {
    pending.get(id)?.reject(error);
    pending.delete(id);
  };

  /** Posts the turn's jobs in one message, at the end of the turn (after every request read in it). */
  function flush(): void {
    const jobs = outbox;
    outbox = [];
    if (closed) {
      for (const job of jobs) fail(job.id, new Error('tracking ingest thread: closed before this batch was stored'));
      return;
    }
    worker ??= start();
    worker.postMessage(jobs);
  }

  return {
    ingest(job: IngestJob, akHex: string): Promise<BatchCounts> {
      const id = ++nextId;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        if (outbox.push({ ...job, id, ak: akHex }) === 1) setImmediate(flush);
      });
    },
    async close(): Promise<void> {
      closed = true;
      const thread = worker;
      worker = null;
      if (thread) await thread.terminate();
    },
  };
}

/** The SQLite file behind `database`, or null in memory and on PostgreSQL. */
async function sqliteFile(database: AppDatabase): Promise<string | null> {
  if (database.engine !== 'sqlite') return null;
  const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(
    database.db,
  );
  return rows[0]?.file || null;
}

/** Stores checked batches of the collector: through an ingest thread on an SQLite file, else in this thread. */
export function batchIngester(database: AppDatabase, store: TrackingStore) {
  let thread: Promise<ReturnType<typeof ingestThread> | null> | null = null;
  return async (job: IngestJob, session: VerifiedToken): Promise<BatchCounts> => {
    thread ??= sqliteFile(database).then((file) => (file === null ? null : ingestThread(file)));
    const pool = await thread;
    if (pool) return pool.ingest(job, session.akHex);
    return store.storeRows(checkedRows(job, session.ak));
  };
}
