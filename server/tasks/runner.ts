// Claims and runs queued tasks: engines in fallback order, each with a concurrency slot and a deadline, then settles it
// on the real measures (SPEC.md §9).
import type { Kysely } from 'kysely';
import type { Schema, TaskRow } from '../db';
import { EngineInputError, ProviderJobOrphaned, type Engine, type EngineRegistry, type EngineResult } from '../engines';
import type { Logger } from '../log';
import type { MediaService } from '../media';
import {
  INPUT_LENGTH_FEATURES,
  LENGTH_INPUTS,
  PER_SECOND_FEATURES,
  priceInputOf,
  TASK_MESSAGES,
  type Feature,
} from '../../src/lib/product-rules';
import type { TaskBilling } from './billing';
import type { ProviderJobStore } from './provider-jobs';
import type { FinishTask, ReadInput, StoredOutput } from './task-types';
import { abortedUnless, finishThroughOutage, isOutage, storeOutputs } from './store-retry';

/** The abort reason of a task that ran past TASK_TIMEOUT_MS. */
export class TaskTimeout extends Error {
  override name = 'TaskTimeout';
}

export interface RunnerOptions {
  db: Kysely<Schema>;
  engines: EngineRegistry;
  media: MediaService;
  log: Logger;
  readInput?: ReadInput;
  finish: FinishTask;
  /** Settles on the engine that made the result (NO_MODEL_PRICE; server/tasks/billing.ts). */
  billing: Pick<TaskBilling, 'settle'>;
  /** Where engines keep their provider jobs, so another attempt resumes them (server/tasks/provider-jobs.ts). */
  providerJobs: Pick<ProviderJobStore, 'forRun' | 'cancelAttempt'>;
}

export function createTaskRunner(o: RunnerOptions) {
  const { db, log } = o;
  // A database that is away when the run ends delays the finishing write; it does not fail the attempt
  // (store-retry.ts).
  const finish = finishThroughOutage(o.finish, db, log);
  const quietly = (what: string, taskId: string) => (error: unknown) =>
    log.warn(what, { taskId, error: error instanceof Error ? error.message : String(error) });

  /** Claims the oldest queued task for a worker; null when none is waiting. */
  async function claimNext(): Promise<TaskRow | null> {
    for (let tries = 0; tries < 5; tries++) {
      const next = await db
        .selectFrom('tasks')
        .select('id')
        .where('status', '=', 'queued')
        .orderBy('created_at')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!next) return null;
      const now = Date.now();
      const claimed = await db
        .updateTable('tasks')
        .set((eb) => ({ status: 'running', started_at: now, updated_at: now, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', next.id)
        .where('status', '=', 'queued')
        .returningAll()
        .executeTakeFirst();
      if (claimed) return claimed;
    }
    return null;
  }

  /**
   * Claims one task by id for a job queue's worker: a queued task, or a running one whose worker lost its lease
   * (its partial outputs are removed). Null when the task is finished, canceled or gone.
   */
  async function claim(id: string): Promise<{ task: TaskRow; takenOver: boolean } | null> {
    const before = await db.selectFrom('tasks').select(['status', 'attempts']).where('id', '=', id).executeTakeFirst();
    if (!before || (before.status !== 'queued' && before.status !== 'running')) return null;
    const now = Date.now();
    const claimed = await db
      .updateTable('tasks')
      .set((eb) => ({
        status: 'running',
        started_at: now,
        updated_at: now,
        progress: 0,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', '=', id)
      .where('status', '=', before.status)
      .where('attempts', '=', before.attempts)
      .returningAll()
      .executeTakeFirst();
    if (!claimed) return null;
    // The earlier attempt's partial outputs; with the store away they stay until the retention cleanup, rather than
    // failing this claim.
    if (before.status === 'running')
      await o.media.deleteForTask(id).catch(quietly('outputs of a taken-over attempt were not removed', id));
    return { task: claimed, takenOver: before.status === 'running' };
  }

  /**
   * Runs a claimed task on its engines in fallback order and settles it; never throws (a failure is the
   * task's outcome). Each engine gets a concurrency slot and its own deadline; a bad input stops the chain.
   */
  async function run(task: TaskRow, signal: AbortSignal): Promise<void> {
    const feature = task.feature as Feature;
    const input = JSON.parse(task.input) as unknown;
    const configured = o.engines.chain(feature);
    const first = o.engines.byName(task.engine);
    const chain: Engine[] = configured.some((e) => e.name === task.engine)
      ? [first!, ...configured.filter((e) => e.name !== task.engine)]
      : first
        ? [first]
        : configured;
    let result: EngineResult | undefined;
    let used = task.engine;
    const stored = (input ?? {}) as Record<string, unknown>;
    const lengthInput = LENGTH_INPUTS[feature];
    /** The length measured at submit, which the hold was quoted on (tasks stored before measuring have none). */
    const heldSeconds = typeof stored.seconds === 'number' ? stored.seconds : undefined;
    /** Length of the first timed input the successful attempt read (speech to text is settled on it). */
    let inputSeconds: number | undefined;
    const failures: string[] = [];
    for (const engine of chain) {
      if (signal.aborted) break;
      const timeoutMs = o.engines.timeoutMs(engine.name);
      const attempt = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
      let release: (() => void) | undefined;
      inputSeconds = undefined;
      try {
        release = await o.engines.acquire(engine.name, attempt);
        result = await engine.run(feature, input, {
          signal: attempt,
          taskId: task.id,
          providerJobs: o.providerJobs.forRun(task, engine.name),
          readInput: async (url, kinds) => {
            if (!o.readInput) throw new Error('this server cannot fetch input media');
            const media = await o.readInput(url, kinds, attempt);
            // An outside file that grew since submit would be made at the price of the shorter one: stop instead
            // (refunded).
            if (
              lengthInput &&
              url === stored[lengthInput.field] &&
              heldSeconds !== undefined &&
              media.durationS !== null &&
              Math.ceil(media.durationS) > Math.ceil(heldSeconds)
            ) {
              throw new EngineInputError(TASK_MESSAGES.inputChanged(heldSeconds, media.durationS));
            }
            if (inputSeconds === undefined && media.durationS !== null) inputSeconds = media.durationS;
            return media;
          },
          progress: async (percent) => {
            const p = Math.max(0, Math.min(99, Math.round(percent)));
            // Fenced by attempt: a run that lost its task (taken over, handed back and claimed again) must not write
            // over the newer one's progress. Progress is advice: a database outage skips the write instead of failing
            // the engine.
            await db
              .updateTable('tasks')
              .set({ progress: p, updated_at: Date.now() })
              .where('id', '=', task.id)
              .where('status', '=', 'running')
              .where('attempts', '=', task.attempts)
              .execute()
              .catch((error: unknown) => {
                if (!isOutage(error)) throw error;
              });
          },
        });
        if (attempt.aborted) throw attempt.reason instanceof Error ? attempt.reason : new Error(String(attempt.reason));
        used = engine.name;
        break;
      } catch (error) {
        result = undefined;
        const message =
          !signal.aborted && attempt.aborted
            ? `timed out after ${Math.round(timeoutMs / 1000)} s`
            : error instanceof Error
              ? error.message
              : String(error);
        failures.push(chain.length > 1 ? `${engine.name}: ${message}` : message);
        log.warn('engine failed', { taskId: task.id, feature, engine: engine.name, error: message });
        // Its provider jobs would run on and bill; unless the task was handed back or taken over, they are canceled.
        await o.providerJobs.cancelAttempt(task, engine.name);
        // A bad input fails on every engine alike; a canceled or timed-out task stops here, as does a run that lost its
        // task.
        if (error instanceof EngineInputError || error instanceof ProviderJobOrphaned || signal.aborted) break;
      } finally {
        release?.();
      }
    }
    if (!result) {
      if (chain.length === 0) failures.push(`engine ${task.engine} is no longer configured`);
      const reason =
        signal.reason instanceof TaskTimeout
          ? TASK_MESSAGES.timedOut
          : `${TASK_MESSAGES.engineFailed}: ${failures.join('; ')}`;
      await finish(task.id, { status: 'failed', error: reason }, ['running'], task.attempts);
      return;
    }
    const seconds = result.outputs.reduce((sum, out) => sum + (out.durationS ?? 0), 0);
    const timed = result.outputs.length > 0 && result.outputs.every((out) => out.durationS !== null);
    // A store outage keeps the outputs on disk and retries their upload; a cancel stops that, the run's own time limit
    // does not.
    const media = await storeOutputs(
      result.outputs.splice(0),
      (out) => o.media.saveOutput(task.user_id, task.id, out.kind, out.mime, out.data, out.durationS),
      (ids) => o.media.deleteByIds(ids),
      {
        what: 'storing the output',
        taskId: task.id,
        log,
        signal: abortedUnless(signal, (reason) => reason instanceof TaskTimeout),
      },
    ).catch((error: unknown) => {
      // Canceled, or given to another worker, while waiting: the task is settled elsewhere.
      if (signal.aborted && !(signal.reason instanceof TaskTimeout)) return null;
      throw error;
    });
    if (!media) return;
    // SPEC.md §9 per-second items are settled on the real output length, speech to text on the real length of the
    // audio the engine read; the rest on the estimate's measures. An output of unknown length is settled on the
    // input length measured at submit, never on 0.
    const realLength =
      PER_SECOND_FEATURES.includes(feature) && timed && seconds > 0
        ? { seconds }
        : INPUT_LENGTH_FEATURES.includes(feature) && inputSeconds !== undefined
          ? { seconds: inputSeconds }
          : {};
    const measures = { ...priceInputOf(feature, stored), ...realLength, ...result.measured };
    const charge = o.billing.settle(feature, measures, used);
    const output: StoredOutput = {
      media,
      ...(result.cloneId ? { cloneId: result.cloneId } : {}),
      ...(result.text !== undefined ? { text: result.text } : {}),
    };
    const done = await finish(
      task.id,
      {
        status: 'succeeded',
        output,
        charge,
        costs: result.providerCosts,
        ...(used !== task.engine ? { engine: used } : {}),
      },
      ['running'],
      task.attempts,
    );
    // Canceled, timed out or taken over by another attempt while the engine worked: this run's files are not kept.
    // Only its own: a newer attempt's result belongs to the task now.
    if (!done)
      await o.media.deleteByIds(media).catch(quietly('outputs of a run that lost its task were not removed', task.id));
  }

  return { claimNext, claim, run };
}
