// The collector's ingest thread (started by ./ingest-pool): checks, opens and group-commits sealed batches on its own
// SQLite connection, so the main thread keeps only HTTP, tokens and budgets.
import { createSecretKey, type KeyObject } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { sql } from 'kysely';
import { openDatabase, type AppDatabase } from '../db';
import { AppError } from '../http/errors';
import { groupCommitter } from './group-commit';
import { checkedRows } from './ingest';
import type { IngestReply, ThreadJob } from './ingest-pool';

const port = parentPort!;
const { file } = workerData as { file: string };
/**
 * This connection commits tracking events only, and syncs the WAL at checkpoints rather than at every commit
 * (synchronous = NORMAL): a process crash loses nothing and the file stays consistent; only an operating-system
 * crash or power cut may lose the last commits, as an analytics pipeline's buffers would. Credits and tasks keep the
 * main connection's full sync, whose commits also make the events before them durable.
 */
async function openIngestConnection(): Promise<AppDatabase> {
  const database = await openDatabase(`sqlite:${file}`);
  await sql`pragma synchronous = normal`.execute(database.db);
  return database;
}

// Opened once; jobs that arrive first wait for it (the port queues nothing once a listener is attached).
const ready = openIngestConnection().then(groupCommitter);

/** Batch keys as key objects, as ./sessions keeps them: a device sends many batches under one. */
const keys = new Map<string, KeyObject>();
const KEYS_MAX = 10_000;
function keyOf(hex: string): KeyObject {
  let key = keys.get(hex);
  if (key === undefined) {
    if (keys.size >= KEYS_MAX) keys.delete(keys.keys().next().value!);
    keys.set(hex, (key = createSecretKey(Buffer.from(hex, 'hex'))));
  }
  return key;
}

/** Replies go back in one list per turn: the group's batches resolve together, so one message answers them all. */
let replies: IngestReply[] = [];
const reply = (message: IngestReply) => {
  if (replies.push(message) === 1)
    queueMicrotask(() => {
      const list = replies;
      replies = [];
      port.postMessage(list);
    });
};
const failed = (id: number, error: unknown): IngestReply =>
  error instanceof AppError
    ? { id, refusal: { status: error.status, code: error.code, message: error.message } }
    : { id, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) };

function take(job: ThreadJob): void {
  let rows;
  try {
    rows = checkedRows(job, keyOf(job.ak));
  } catch (error) {
    reply(failed(job.id, error));
    return;
  }
  // Batches that arrive in one turn share a commit (group-commit waits for the turn's end).
  ready
    .then((committer) => committer.store(rows))
    .then(
      (counts) => reply({ id: job.id, counts }),
      (error: unknown) => reply(failed(job.id, error)),
    );
}

port.on('message', (jobs: ThreadJob[]) => {
  for (const job of jobs) take(job);
});
