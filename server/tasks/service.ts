// The task service: submit (hold the estimate), run on an engine, settle, fail and refund, cancel, list, delete, recover.
import { createHash, randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Schema, TaskRow } from '../db';
import { applyCreditChange, InsufficientCreditsError } from '../credits';
import { EngineInputError, type Engine, type EngineContext, type EngineRegistry, type EngineResult } from '../engines';
import { AppError } from '../http/errors';
import { ERROR_CODES } from '../../src/lib/spec/errors';
import { PREVIEW } from '../../src/lib/spec/engines';
import type { Logger } from '../log';
import type { MediaService } from '../media';
import { quote } from '../../src/lib/spec/quote';
import {
  IDEMPOTENCY,
  LENGTH_INPUTS,
  TASK_ERROR_CODES,
  TASK_LIMITS,
  TASK_MESSAGES,
  featurePrice,
  INPUT_LENGTH_FEATURES,
  PER_SECOND_FEATURES,
  type Feature,
  type PriceInput,
  type TaskStatus,
} from '../../src/lib/spec/tasks';
import type { TaskConfig } from './config';
import { priceInputOf } from './inputs';

export interface SubmitRequest {
  userId: string;
  feature: Feature;
  /** The normalised input (validated by the route); stored as JSON and handed to the engine. */
  input: Record<string, unknown>;
  source: 'playground' | 'api';
  idempotencyKey?: string | null;
  callbackUrl?: string | null;
}

export interface StoredOutput {
  media: string[];
  cloneId?: string;
  /** Transcript of a speech-to-text task. */
  text?: string;
}

/** Ledger reasons of task credit movements; the reference is always the task id. */
export const LEDGER_REASONS = { hold: 'task-hold', settle: 'task-settle', refund: 'task-refund' } as const;

export interface TaskServiceOptions {
  db: Kysely<Schema>;
  engines: EngineRegistry;
  media: MediaService;
  config: TaskConfig;
  log: Logger;
  /** Told after a submit commits, so an idle queue picks the task up at once. */
  onSubmitted?: () => void;
  /** Base of this server's signed media URLs (config.publicUrl): such inputs must be the submitting user's own files. */
  publicUrl: string;
  /** Fetches input media for engines and, at submit, for measuring the length a task is charged on (server/tasks/input-media.ts). */
  readInput?: (url: string, kinds: Parameters<EngineContext['readInput']>[1], signal: AbortSignal) => ReturnType<EngineContext['readInput']>;
  /** Called inside the transaction that finishes a task, so a webhook is stored with the outcome or not at all. */
  onFinished?: (trx: Transaction<Schema>, task: TaskRow) => Promise<void>;
}

const ACTIVE: TaskStatus[] = ['queued', 'running'];

function requestHash(req: SubmitRequest): string {
  return createHash('sha256').update(JSON.stringify([req.feature, req.input, req.callbackUrl ?? null])).digest('hex');
}

function notFound(): AppError {
  return new AppError(404, TASK_ERROR_CODES.taskNotFound, TASK_MESSAGES.taskNotFound);
}

/** Fields people write in (speech text, prompts): a link typed there is words, not an input file. */
const FREE_TEXT = new Set(['text', 'prompt', 'negativePrompt']);

/** Every string in a stored input with its field path, free text left out (inputs are small JSON: flat fields, a few arrays and objects). */
function* strings(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${path}[${i}]`);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (!FREE_TEXT.has(k)) yield* strings(v, path ? `${path}.${k}` : k);
  }
}

function inputError(field: string, message: string): AppError {
  return new AppError(400, ERROR_CODES.invalidInput, `${field}: ${message}`);
}

/** Why a download at submit failed, in words a person can act on (the reader's own errors already are). */
function readProblem(error: unknown): string {
  if (error instanceof EngineInputError) return error.message;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `${TASK_MESSAGES.inputUnreadable}: it took longer than ${PREVIEW.fetchTimeoutMs / 1000} s to download`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
  return `${TASK_MESSAGES.inputUnreadable} (${cause})`;
}

/** The estimate held at submit: the §9 price of the input's measures. */
export function estimateCredits(feature: Feature, measures: PriceInput): { itemId: string; credits: number } {
  const { itemId, params } = featurePrice(feature, measures);
  return { itemId, credits: quote(itemId, params) };
}

export function createTaskService(o: TaskServiceOptions) {
  const { db, log } = o;

  async function byId(id: string) {
    return db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async function replay(req: SubmitRequest, hash: string, now: number): Promise<TaskRow | undefined> {
    if (!req.idempotencyKey) return undefined;
    const existing = await db
      .selectFrom('tasks')
      .selectAll()
      .where('user_id', '=', req.userId)
      .where('idempotency_key', '=', req.idempotencyKey)
      .executeTakeFirst();
    if (!existing) return undefined;
    if (existing.created_at < now - IDEMPOTENCY.ttlMs) {
      // Past its lifetime the key is free again; the old task keeps its record without it.
      await db.updateTable('tasks').set({ idempotency_key: null }).where('id', '=', existing.id).execute();
      return undefined;
    }
    if (existing.request_hash !== hash) throw new AppError(409, TASK_ERROR_CODES.conflict, TASK_MESSAGES.idempotencyConflict);
    return existing;
  }

  /** Finishes a task that is still active: sets the outcome and moves credits in one transaction; false if it was not active. */
  async function finish(
    id: string,
    outcome: { status: 'succeeded'; output: StoredOutput; charge: number; engine?: string } | { status: 'failed' | 'canceled'; error: string },
    from: TaskStatus[] = ACTIVE,
  ): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      const now = Date.now();
      const task = await trx.selectFrom('tasks').selectAll().where('id', '=', id).where('status', 'in', from).executeTakeFirst();
      if (!task) return false;
      const held = task.credits_held;
      let charged = 0;
      if (outcome.status === 'succeeded') {
        charged = outcome.charge;
        const diff = held - charged;
        if (diff > 0) await applyCreditChange(trx, { userId: task.user_id, delta: diff, reason: LEDGER_REASONS.settle, reference: id });
        if (diff < 0) {
          // The real output cost more than the estimate: charge the rest if the balance allows, else keep what was held.
          try {
            await applyCreditChange(trx, { userId: task.user_id, delta: diff, reason: LEDGER_REASONS.settle, reference: id });
          } catch (error) {
            if (!(error instanceof InsufficientCreditsError)) throw error;
            charged = held;
          }
        }
      } else if (held > 0) {
        await applyCreditChange(trx, { userId: task.user_id, delta: held, reason: LEDGER_REASONS.refund, reference: id });
      }
      const updated = await trx
        .updateTable('tasks')
        .set({
          status: outcome.status,
          // A fallback engine that produced the result is recorded as the task's engine.
          ...(outcome.status === 'succeeded' && outcome.engine ? { engine: outcome.engine } : {}),
          output: outcome.status === 'succeeded' ? JSON.stringify(outcome.output) : null,
          error: outcome.status === 'succeeded' ? null : outcome.error,
          progress: outcome.status === 'succeeded' ? 100 : task.progress,
          credits_charged: charged,
          finished_at: now,
          updated_at: now,
        })
        .where('id', '=', id)
        .where('status', '=', task.status)
        .returningAll()
        .executeTakeFirst();
      // Another writer finished it between our read and write (PostgreSQL): roll everything back.
      if (!updated) throw new FinishRace();
      await o.onFinished?.(trx, updated);
      return true;
    }).catch((error: unknown) => {
      if (error instanceof FinishRace) return false;
      throw error;
    });
  }

  const ownMedia = `${o.publicUrl}/media/`;

  /** Media links of this server in an input must be the user's own files (another account's upload or result is refused). */
  async function checkOwnMedia(userId: string, input: Record<string, unknown>): Promise<void> {
    for (const [field, value] of strings(input, '')) {
      if (!value.startsWith(ownMedia)) continue;
      const id = /^([A-Za-z0-9]{1,64})(\.[A-Za-z0-9]+)?(\?|$)/.exec(value.slice(ownMedia.length))?.[1];
      const row = id ? await o.media.byId(id) : undefined;
      if (!row || row.expires_at < Date.now()) throw inputError(field, TASK_MESSAGES.mediaUnknown);
      if (row.user_id !== userId) throw new AppError(403, ERROR_CODES.forbidden, `${field}: ${TASK_MESSAGES.mediaNotYours}`);
    }
  }

  /**
   * The input with `seconds` set to the measured length of the file a per-second or input-length feature is charged on
   * (SPEC.md §9), read now through the same reader engines use, so the full estimate is held before the task exists.
   */
  async function measured(feature: Feature, input: Record<string, unknown>): Promise<Record<string, unknown>> {
    const spec = LENGTH_INPUTS[feature];
    if (!spec) {
      // A feature charged by length without a length input would be held at 0: refuse to run rather than give it away.
      if (PER_SECOND_FEATURES.includes(feature) || INPUT_LENGTH_FEATURES.includes(feature)) throw new Error(`no length input is defined for ${feature}`);
      return input;
    }
    const url = input[spec.field];
    if (typeof url !== 'string' || url === '') throw inputError(spec.field, 'is required');
    if (!o.readInput) throw new AppError(503, ERROR_CODES.unavailable, `${spec.field}: this server cannot read input media`);
    let seconds: number | null;
    try {
      seconds = (await o.readInput(url, spec.kinds, AbortSignal.timeout(PREVIEW.fetchTimeoutMs))).durationS;
    } catch (error) {
      if (!(error instanceof EngineInputError)) log.warn('input could not be measured at submit', { feature, error: error instanceof Error ? error.message : String(error) });
      throw inputError(spec.field, readProblem(error));
    }
    if (seconds === null || !Number.isFinite(seconds) || seconds <= 0) throw inputError(spec.field, TASK_MESSAGES.inputUnmeasured);
    return { ...input, seconds };
  }

  return {
    byId,

    /**
     * Checks the input's media links, measures the length it is charged on, holds the full estimate and stores the
     * task (or returns the earlier task for a replayed Idempotency-Key). 402 when the balance does not cover it.
     */
    async submit(req: SubmitRequest): Promise<{ task: TaskRow; replayed: boolean }> {
      const engine = o.engines.forFeature(req.feature);
      const hash = requestHash(req);
      const now = Date.now();
      const earlier = await replay(req, hash, now);
      if (earlier) return { task: earlier, replayed: true };
      await checkOwnMedia(req.userId, req.input);
      const input = await measured(req.feature, req.input);
      const { itemId, credits } = estimateCredits(req.feature, priceInputOf(req.feature, input));

      const id = randomUUID();
      try {
        const task = await db.transaction().execute(async (trx) => {
          // Touching the user row first serialises one user's submits on PostgreSQL (row lock) so the
          // concurrency count below cannot be raced; SQLite runs transactions one at a time anyway.
          await trx.updateTable('users').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', req.userId).execute();
          const { active } = await trx
            .selectFrom('tasks')
            .select((eb) => eb.fn.countAll<number>().as('active'))
            .where('user_id', '=', req.userId)
            .where('status', 'in', ACTIVE)
            .executeTakeFirstOrThrow();
          if (Number(active) >= o.config.perUserConcurrent) {
            throw new AppError(429, TASK_ERROR_CODES.tooManyTasks, `${TASK_MESSAGES.tooManyTasks} (limit ${o.config.perUserConcurrent})`, {
              'Retry-After': String(TASK_LIMITS.retryAfterS),
            });
          }
          const row = await trx
            .insertInto('tasks')
            .values({
              id,
              user_id: req.userId,
              feature: req.feature,
              status: 'queued',
              source: req.source,
              input: JSON.stringify(input),
              engine: engine.name,
              price_item: itemId,
              credits_held: credits,
              idempotency_key: req.idempotencyKey ?? null,
              request_hash: req.idempotencyKey ? hash : null,
              callback_url: req.callbackUrl ?? null,
              created_at: now,
              updated_at: now,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          if (credits > 0) await applyCreditChange(trx, { userId: req.userId, delta: -credits, reason: LEDGER_REASONS.hold, reference: id });
          return row;
        });
        o.onSubmitted?.();
        return { task, replayed: false };
      } catch (error) {
        if (error instanceof InsufficientCreditsError) {
          throw new AppError(402, TASK_ERROR_CODES.insufficientCredits, `${TASK_MESSAGES.insufficientCredits}: it needs ${credits}, the balance is ${error.balance}`);
        }
        // Two requests with one Idempotency-Key raced (PostgreSQL): the loser answers like a replay.
        if (req.idempotencyKey && !(error instanceof AppError)) {
          const winner = await replay(req, hash, now);
          if (winner) return { task: winner, replayed: true };
        }
        throw error;
      }
    },

    /** Claims the oldest queued task for a worker; null when none is waiting. */
    async claimNext(): Promise<TaskRow | null> {
      for (let tries = 0; tries < 5; tries++) {
        const next = await db.selectFrom('tasks').select('id').where('status', '=', 'queued').orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
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
    },

    /**
     * Runs a claimed task on its engines in fallback order and settles it; never throws (a failure is the
     * task's outcome). Each engine gets a concurrency slot and its own deadline; a bad input stops the chain.
     */
    async run(task: TaskRow, signal: AbortSignal): Promise<void> {
      const feature = task.feature as Feature;
      const input = JSON.parse(task.input) as unknown;
      const configured = o.engines.chain(feature);
      const first = o.engines.byName(task.engine);
      const chain: Engine[] = configured.some((e) => e.name === task.engine) ? [first!, ...configured.filter((e) => e.name !== task.engine)] : first ? [first] : configured;
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
            readInput: async (url, kinds) => {
              if (!o.readInput) throw new Error('this server cannot fetch input media');
              const media = await o.readInput(url, kinds, attempt);
              // An outside file that grew since submit would be made at the price of the shorter one: stop instead (refunded).
              if (lengthInput && url === stored[lengthInput.field] && heldSeconds !== undefined && media.durationS !== null && Math.ceil(media.durationS) > Math.ceil(heldSeconds)) {
                throw new EngineInputError(TASK_MESSAGES.inputChanged(heldSeconds, media.durationS));
              }
              if (inputSeconds === undefined && media.durationS !== null) inputSeconds = media.durationS;
              return media;
            },
            progress: async (percent) => {
              const p = Math.max(0, Math.min(99, Math.round(percent)));
              await db.updateTable('tasks').set({ progress: p, updated_at: Date.now() }).where('id', '=', task.id).where('status', '=', 'running').execute();
            },
          });
          if (attempt.aborted) throw attempt.reason instanceof Error ? attempt.reason : new Error(String(attempt.reason));
          used = engine.name;
          break;
        } catch (error) {
          result = undefined;
          const message = !signal.aborted && attempt.aborted ? `timed out after ${Math.round(timeoutMs / 1000)} s` : error instanceof Error ? error.message : String(error);
          failures.push(chain.length > 1 ? `${engine.name}: ${message}` : message);
          log.warn('engine failed', { taskId: task.id, feature, engine: engine.name, error: message });
          // A bad input fails on every engine alike; a canceled or timed-out task stops here.
          if (error instanceof EngineInputError || signal.aborted) break;
        } finally {
          release?.();
        }
      }
      if (!result) {
        if (chain.length === 0) failures.push(`engine ${task.engine} is no longer configured`);
        const reason = signal.reason instanceof TaskTimeout ? TASK_MESSAGES.timedOut : `${TASK_MESSAGES.engineFailed}: ${failures.join('; ')}`;
        await finish(task.id, { status: 'failed', error: reason }, ['running']);
        return;
      }
      const media: string[] = [];
      let seconds = 0;
      let timed = result.outputs.length > 0;
      for (const out of result.outputs) {
        const saved = await o.media.saveOutput(task.user_id, task.id, out.kind, out.mime, out.data, out.durationS);
        media.push(saved.id);
        seconds += out.durationS ?? 0;
        if (out.durationS === null) timed = false;
      }
      // SPEC.md §9 per-second items are settled on the real output length, speech to text on the real length of the
      // audio the engine read; the rest on the estimate's measures. An output of unknown length is settled on the
      // input length measured at submit, never on 0.
      const realLength =
        PER_SECOND_FEATURES.includes(feature) && timed && seconds > 0 ? { seconds } : INPUT_LENGTH_FEATURES.includes(feature) && inputSeconds !== undefined ? { seconds: inputSeconds } : {};
      const measures = { ...priceInputOf(feature, stored), ...realLength, ...result.measured };
      const charge = estimateCredits(feature, measures).credits;
      const output: StoredOutput = { media, ...(result.cloneId ? { cloneId: result.cloneId } : {}), ...(result.text !== undefined ? { text: result.text } : {}) };
      const done = await finish(task.id, { status: 'succeeded', output, charge, ...(used !== task.engine ? { engine: used } : {}) }, ['running']);
      // Canceled (or timed out) while the engine worked: the result is not kept.
      if (!done) await o.media.deleteForTask(task.id);
    },

    /** Fails and refunds a task the platform could not run (restart, timeout). */
    fail(id: string, reason: string, from: TaskStatus[] = ACTIVE) {
      return finish(id, { status: 'failed', error: reason }, from);
    },

    /** The owner cancels a queued or running task; its hold is refunded. */
    async cancel(userId: string, id: string): Promise<TaskRow> {
      const task = await byId(id);
      if (!task || task.user_id !== userId) throw notFound();
      const done = await finish(id, { status: 'canceled', error: TASK_MESSAGES.canceledByUser });
      if (!done) throw new AppError(409, TASK_ERROR_CODES.conflict, `${TASK_MESSAGES.notCancelable}; this task is ${(await byId(id))?.status}`);
      return (await byId(id))!;
    },

    async get(userId: string, id: string): Promise<TaskRow> {
      const task = await byId(id);
      if (!task || task.user_id !== userId) throw notFound();
      return task;
    },

    /** History, newest first (get_list). */
    async list(userId: string, page: number, pageSize: number, feature?: Feature) {
      let q = db.selectFrom('tasks').where('user_id', '=', userId);
      if (feature) q = q.where('feature', '=', feature);
      const rows = await q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute();
      const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      return { rows, total: Number(total) };
    },

    /** Removes a task and its media; an active one is canceled (and refunded) first. */
    async remove(userId: string, id: string): Promise<void> {
      const task = await byId(id);
      if (!task || task.user_id !== userId) throw notFound();
      if (ACTIVE.includes(task.status as TaskStatus)) await finish(id, { status: 'canceled', error: TASK_MESSAGES.canceledByUser });
      await o.media.deleteForTask(id);
      await db.deleteFrom('webhook_deliveries').where('task_id', '=', id).execute();
      await db.deleteFrom('tasks').where('id', '=', id).execute();
    },

    /**
     * Records when a task's results expired (SPEC.md §9 retention), before the media cleanup removes them, so the task
     * keeps saying so: from the files' own expiry, or for results removed before this was recorded, finish + retention.
     */
    async recordExpiredOutputs(now: number, retentionMs: number): Promise<number> {
      const fromMedia = await db
        .updateTable('tasks')
        .set((eb) => ({ outputs_expired_at: eb.selectFrom('media').select((m) => m.fn.min('media.expires_at').as('at')).whereRef('media.task_id', '=', 'tasks.id') }))
        .where('outputs_expired_at', 'is', null)
        .where((eb) => eb.exists(eb.selectFrom('media').select('media.id').whereRef('media.task_id', '=', 'tasks.id').where('media.expires_at', '<', now)))
        .executeTakeFirst();
      const removedEarlier = await db
        .updateTable('tasks')
        .set((eb) => ({ outputs_expired_at: eb('finished_at', '+', retentionMs) }))
        .where('outputs_expired_at', 'is', null)
        .where('status', '=', 'succeeded')
        .where('finished_at', '<=', now - retentionMs)
        .where('output', 'not like', '%"media":[]%')
        .where((eb) => eb.not(eb.exists(eb.selectFrom('media').select('media.id').whereRef('media.task_id', '=', 'tasks.id'))))
        .executeTakeFirst();
      return Number(fromMedia.numUpdatedRows) + Number(removedEarlier.numUpdatedRows);
    },

    /**
     * After a restart, so that a restart loses no task: tasks left running are queued again to resume,
     * or failed and refunded once they have used their attempts. Call before workers start.
     */
    async recover(maxAttempts: number = TASK_LIMITS.maxAttempts): Promise<{ resumed: number; failed: number }> {
      const stranded = await db.selectFrom('tasks').select(['id', 'attempts']).where('status', '=', 'running').execute();
      let resumed = 0;
      let failed = 0;
      for (const task of stranded) {
        if (task.attempts < maxAttempts) {
          await db.updateTable('tasks').set({ status: 'queued', progress: 0, updated_at: Date.now() }).where('id', '=', task.id).where('status', '=', 'running').execute();
          await o.media.deleteForTask(task.id);
          resumed++;
        } else if (await finish(task.id, { status: 'failed', error: TASK_MESSAGES.interrupted }, ['running'])) {
          failed++;
        }
      }
      return { resumed, failed };
    },
  };
}

export type TaskService = ReturnType<typeof createTaskService>;

class FinishRace extends Error {}

/** The abort reason of a task that ran past TASK_TIMEOUT_MS. */
export class TaskTimeout extends Error {
  override name = 'TaskTimeout';
}
