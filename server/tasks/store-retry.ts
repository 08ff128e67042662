// Rides out a media store or database outage at the end of a run: outputs wait under DATA_DIR/tmp for their upload and
// the finishing write is retried, instead of spending an attempt.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { isDatabaseUnavailable, type Schema } from '../db';
import { AppError } from '../http/errors';
import type { Logger } from '../log';
import { withWorkDir } from '../tools';
import { ERROR_CODES, OUTAGES } from '../../src/lib/product-rules';
import type { FinishTask } from './task-types';

/**
 * The media store answered 503 (server/media/s3-store.ts) or PostgreSQL is unreachable: worth waiting out, unlike any
 * other failure.
 */
export function isOutage(error: unknown): boolean {
  return (
    (error instanceof AppError && error.status === 503 && error.code === ERROR_CODES.unavailable) ||
    isDatabaseUnavailable(error)
  );
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface OutageRetry {
  /** What is retried, for the log. */
  what: string;
  taskId: string;
  log: Logger;
  /** Aborted when the retries must stop early (the task was canceled, or its job was given to another worker). */
  signal?: AbortSignal;
  /** OUTAGES.storeRetryDeadlineS unless given (tests). */
  deadlineMs?: number;
}

/**
 * Calls `fn` until it succeeds, waiting with doubling pauses while it fails for an outage. Any other failure, an abort
 * of `signal`, or an outage that outlasts the deadline is thrown as it came.
 */
export async function retryThroughOutage<T>(fn: () => Promise<T>, o: OutageRetry): Promise<T> {
  const deadline = Date.now() + (o.deadlineMs ?? OUTAGES.storeRetryDeadlineS * 1000);
  let delay: number = OUTAGES.storeRetryFirstDelayMs;
  for (let tries = 1; ; tries++) {
    try {
      const result = await fn();
      if (tries > 1) o.log.info(`${o.what} went through after an outage`, { taskId: o.taskId, tries });
      return result;
    } catch (error) {
      if (!isOutage(error) || o.signal?.aborted || Date.now() + delay > deadline) throw error;
      if (tries === 1)
        o.log.warn(`${o.what} waits for the media store or the database`, { taskId: o.taskId, error: describe(error) });
      try {
        await sleep(delay, undefined, o.signal ? { signal: o.signal } : {});
      } catch {
        throw error;
      }
      delay = Math.min(delay * 2, OUTAGES.storeRetryMaxDelayMs);
    }
  }
}

/**
 * A signal aborted with `signal`, except by the reasons `keep` accepts (a run's own time limit: its output was made in
 * time).
 */
export function abortedUnless(signal: AbortSignal, keep: (reason: unknown) => boolean): AbortSignal {
  const controller = new AbortController();
  const forward = () => {
    if (!keep(signal.reason)) controller.abort(signal.reason);
  };
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  return controller.signal;
}

/** An engine's output: bytes and what describes them. */
export interface OutputToStore {
  data: Buffer;
}

/**
 * Stores a run's outputs and answers their media ids. The caller hands `outputs` over: once the store fails for an
 * outage, the ones not yet stored are written under DATA_DIR/tmp, the array is emptied (so no video waits in memory)
 * and each upload is retried from its file. On giving up, the outputs already stored are removed and the error thrown.
 */
export async function storeOutputs<T extends OutputToStore>(
  outputs: T[],
  save: (output: T) => Promise<{ id: string }>,
  remove: (ids: string[]) => Promise<void>,
  o: OutageRetry,
): Promise<string[]> {
  const ids: string[] = [];
  const giveUp = async (error: unknown): Promise<never> => {
    await remove(ids).catch((removeError: unknown) =>
      o.log.warn('outputs of an abandoned run were not removed', { taskId: o.taskId, error: describe(removeError) }),
    );
    throw error;
  };
  let next = 0;
  try {
    for (; next < outputs.length; next++) ids.push((await save(outputs[next]!)).id);
    return ids;
  } catch (error) {
    if (!isOutage(error) || o.signal?.aborted) return giveUp(error);
  }
  return withWorkDir('outputs-', async (dir) => {
    const waiting: Array<{ output: T; file: string }> = [];
    for (let n = next; n < outputs.length; n++) {
      const output = outputs[n]!;
      const file = path.join(dir, String(n));
      await writeFile(file, output.data);
      waiting.push({ output: { ...output, data: Buffer.alloc(0) }, file });
    }
    outputs.length = 0;
    try {
      for (const { output, file } of waiting)
        ids.push((await retryThroughOutage(async () => save({ ...output, data: await readFile(file) }), o)).id);
      return ids;
    } catch (error) {
      return giveUp(error);
    }
  });
}

/**
 * The finishing write, retried while the database is unreachable. A try that failed may still have committed (the
 * answer was lost with the connection): when a later try then finds the task already succeeded by this attempt with
 * these outputs, that is this run's own success.
 */
export function finishThroughOutage(finish: FinishTask, db: Kysely<Schema>, log: Logger): FinishTask {
  return async (id, outcome, from, attempt) => {
    let failedOnce = false;
    return retryThroughOutage(
      async () => {
        try {
          if (!failedOnce) return await finish(id, outcome, from, attempt);
          if (await finish(id, outcome, from, attempt)) return true;
          const task = await db
            .selectFrom('tasks')
            .select(['status', 'attempts', 'output'])
            .where('id', '=', id)
            .executeTakeFirst();
          if (
            !task ||
            outcome.status !== 'succeeded' ||
            task.status !== 'succeeded' ||
            (attempt !== undefined && task.attempts !== attempt)
          )
            return false;
          return task.output === JSON.stringify(outcome.output);
        } catch (error) {
          failedOnce = true;
          throw error;
        }
      },
      { what: 'finishing the task', taskId: id, log },
    );
  };
}
