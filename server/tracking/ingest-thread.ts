// The collector's ingest thread (started by ./ingest-pool): checks, opens and group-commits sealed batches on its own
// SQLite connection, so the main thread keeps only HTTP, tokens and budgets.
import { createSecretKey, type KeyObject } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db';
import { AppError } from '../http/errors';
import { groupCommitter } from './group-commit';
import { checkedRows, type IngestJob } from './ingest';
import type { IngestReply } from './ingest-pool';

const port = parentPort!;
const { file } = workerData as { file: string };
// Opened once; jobs that arrive first wait for it (the port queues nothing once a listener is attached).
const ready = openDatabase(`sqlite:${file}`).then(groupCommitter);

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

const reply = (message: IngestReply) => port.postMessage(message);
const failed = (id: number, error: unknown): IngestReply =>
  error instanceof AppError ? { id, refusal: { status: error.status, code: error.code, message: error.message } } : { id, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) };

port.on('message', (job: IngestJob & { id: number; ak: string }) => {
  let rows;
  try {
    rows = checkedRows(job, keyOf(job.ak));
  } catch (error) {
    reply(failed(job.id, error));
    return;
  }
  // Batches whose messages arrive in one turn share a commit (group-commit waits for the turn's end).
  ready.then((committer) => committer.store(rows)).then((counts) => reply({ id: job.id, counts }), (error: unknown) => reply(failed(job.id, error)));
});
