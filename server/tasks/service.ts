// The task service: submit (hold the price), claim, fail, cancel, list, delete, recover; runs go to runner.ts, the
// charge or refund of a finished task to settle.ts.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { preparedQuery, type Schema, type TaskRow } from '../db';
import { applyCreditChange, InsufficientCreditsError } from '../credits';
import type { EngineRegistry } from '../engines';
import { AppError } from '../http/errors';
import type { Logger } from '../log';
import type { MediaService } from '../media';
import {
  priceInputOf,
  TASK_ERROR_CODES,
  TASK_LIMITS,
  TASK_MESSAGES,
  type Feature,
  type TaskStatus,
} from '../../src/lib/product-rules';
import type { TaskConfig } from '../config';
import { createInputChecks } from './measure';
import { taskBilling } from './billing';
import { recordExpiredOutputs } from './retention';
import { createTaskRunner } from './runner';
import { providerJobStore } from './provider-jobs';
import { replayed, requestHash } from './idempotency';
import { ACTIVE_STATUSES as ACTIVE, LEDGER_REASONS, taskSettlement, type TaskSettlementOptions } from './settle';
import { checkKeyCaps } from './key-caps';
import type { ReadInput } from './task-types';

export interface SubmitRequest {
  userId: string;
  feature: Feature;
  /** The normalised input (validated by the route); stored as JSON and handed to the engine. */
  input: Record<string, unknown>;
  source: 'playground' | 'api';
  idempotencyKey?: string | null;
  callbackUrl?: string | null;
  /**
   * Of a public API submit: its key, whose credit caps are checked with the hold (key-caps.ts), and its X-Request-Id,
   * kept for the usage export.
   */
  keyId?: string | null;
  requestId?: string | null;
}

export interface TaskServiceOptions {
  db: Kysely<Schema>;
  engines: EngineRegistry;
  media: MediaService;
  config: TaskConfig;
  log: Logger;
  /** Told after a submit commits, so an idle queue picks the task up at once. */
  onSubmitted?: () => void;
  /**
   * Called last inside the submit transaction (a job queue's enqueue), so the task, its hold and its job commit
   * together or not at all.
   */
  onStored?: (trx: Transaction<Schema>, task: TaskRow) => Promise<void>;
  /**
   * Base of this server's signed media URLs (config.publicUrl): such inputs must be the submitting user's own files.
   */
  publicUrl: string;
  /**
   * Fetches input media for engines and, at submit, for measuring the length a task is charged on
   * (server/tasks/input-media.ts).
   */
  readInput?: ReadInput;
  /** Called inside the transaction that finishes a task, so a webhook is stored with the outcome or not at all. */
  onFinished?: TaskSettlementOptions['onFinished'];
}

const notFound = (): AppError => new AppError(404, TASK_ERROR_CODES.taskNotFound, TASK_MESSAGES.taskNotFound);
// Every poll and result call reads its task by id, so this query is compiled once (server/db/prepared.ts).
const taskById = preparedQuery((db, id: string) => db.selectFrom('tasks').selectAll().where('id', '=', id));

export function createTaskService(o: TaskServiceOptions) {
  const { db } = o;
  const providerJobs = providerJobStore(o);

  async function byId(id: string) {
    return taskById.first(db, id);
  }

  const { finish, providerJobsEnded } = taskSettlement({ ...o, providerJobs });
  const checks = createInputChecks(o);
  const billing = taskBilling({ engines: o.engines, noModelPrice: o.config.noModelPrice, log: o.log });
  const runner = createTaskRunner({ ...o, finish, billing, providerJobs });

  return {
    byId,

    /**
     * Checks the input's media links, measures the length it is charged on, holds the full estimate and stores the
     * task (or returns the earlier task for a replayed Idempotency-Key). 402 when the balance does not cover it.
     */
    async submit(req: SubmitRequest): Promise<{ task: TaskRow; replayed: boolean }> {
      const engine = billing.engineFor(req.feature);
      const hash = requestHash(req);
      const now = Date.now();
      const earlier = await replayed(db, req, hash, now);
      if (earlier) return { task: earlier, replayed: true };
      await checks.checkOwnMedia(req.userId, req.input);
      const input = await checks.measured(req.feature, req.input);
      const { itemId, credits } = billing.hold(req.feature, priceInputOf(req.feature, input));

      const id = randomUUID();
      try {
        const task = await db.transaction().execute(async (trx) => {
          // Touching the user row first serialises one user's submits on PostgreSQL (row lock) so the
          // concurrency count below cannot be raced; SQLite runs transactions one at a time anyway.
          await trx
            .updateTable('users')
            .set((eb) => ({ updated_at: eb.ref('updated_at') }))
            .where('id', '=', req.userId)
            .execute();
          const { active } = await trx
            .selectFrom('tasks')
            .select((eb) => eb.fn.countAll<number>().as('active'))
            .where('user_id', '=', req.userId)
            .where('status', 'in', ACTIVE)
            .executeTakeFirstOrThrow();
          if (Number(active) >= o.config.perUserConcurrent) {
            throw new AppError(
              429,
              TASK_ERROR_CODES.tooManyTasks,
              `${TASK_MESSAGES.tooManyTasks} (limit ${o.config.perUserConcurrent})`,
              {
                'Retry-After': String(TASK_LIMITS.retryAfterS),
              },
            );
          }
          if (req.keyId) await checkKeyCaps(trx, req.keyId, credits, now);
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
              key_id: req.keyId ?? null,
              request_id: req.requestId ?? null,
              created_at: now,
              updated_at: now,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          if (credits > 0)
            await applyCreditChange(trx, {
              userId: req.userId,
              delta: -credits,
              reason: LEDGER_REASONS.hold,
              reference: id,
            });
          await o.onStored?.(trx, row);
          return row;
        });
        o.onSubmitted?.();
        return { task, replayed: false };
      } catch (error) {
        if (error instanceof InsufficientCreditsError) {
          throw new AppError(
            402,
            TASK_ERROR_CODES.insufficientCredits,
            `${TASK_MESSAGES.insufficientCredits}: it needs ${credits}, the balance is ${error.balance}`,
          );
        }
        // Two requests with one Idempotency-Key raced (PostgreSQL): the loser answers like a replay.
        if (req.idempotencyKey && !(error instanceof AppError)) {
          const winner = await replayed(db, req, hash, now);
          if (winner) return { task: winner, replayed: true };
        }
        throw error;
      }
    },

    /** Claims the oldest queued task for a worker; null when none is waiting (server/tasks/runner.ts). */
    claimNext: runner.claimNext,

    /** Claims one task by id for a job queue's worker, or takes over one whose worker died (server/tasks/runner.ts). */
    claim: runner.claim,

    /** Runs a claimed task on its engines in fallback order and settles it; never throws (server/tasks/runner.ts). */
    run: runner.run,

    /** Resolves once the provider jobs of finished tasks are canceled or ended (a stopping process waits for it). */
    providerJobsSettled: providerJobsEnded,

    /** Records when tasks' results expired, before the media cleanup removes them (server/tasks/retention.ts). */
    recordExpiredOutputs: (now: number, retentionMs: number) => recordExpiredOutputs(db, now, retentionMs),

    /** Fails and refunds a task the platform could not run (restart, timeout). */
    fail(id: string, reason: string, from: TaskStatus[] = ACTIVE) {
      return finish(id, { status: 'failed', error: reason }, from);
    },

    /** The owner cancels a queued or running task; its hold is refunded. */
    async cancel(userId: string, id: string): Promise<TaskRow> {
      const task = await byId(id);
      if (!task || task.user_id !== userId) throw notFound();
      const done = await finish(id, { status: 'canceled', error: TASK_MESSAGES.canceledByUser });
      if (!done)
        throw new AppError(
          409,
          TASK_ERROR_CODES.conflict,
          `${TASK_MESSAGES.notCancelable}; this task is ${(await byId(id))?.status}`,
        );
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
      const rows = await q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute();
      const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      return { rows, total: Number(total) };
    },

    /** Removes a task and its media; an active one is canceled (and refunded) first. */
    async remove(userId: string, id: string): Promise<void> {
      const task = await byId(id);
      if (!task || task.user_id !== userId) throw notFound();
      if (ACTIVE.includes(task.status as TaskStatus))
        await finish(id, { status: 'canceled', error: TASK_MESSAGES.canceledByUser });
      // Its provider jobs are canceled before their references go with the task.
      const removed = (await byId(id)) ?? task;
      await providerJobs.settle({
        id,
        status: removed.status as TaskStatus,
        engine: removed.engine,
        attempts: removed.attempts,
      });
      await providerJobs.remove(id);
      await o.media.deleteForTask(id);
      await db.deleteFrom('webhook_attempts').where('task_id', '=', id).execute();
      await db.deleteFrom('webhook_deliveries').where('task_id', '=', id).execute();
      await db.deleteFrom('tasks').where('id', '=', id).execute();
    },

    /**
     * After a restart, so that a restart loses no task: tasks left running are queued again to resume,
     * or failed and refunded once they have used their attempts. Call before workers start.
     */
    async recover(maxAttempts: number = TASK_LIMITS.maxAttempts): Promise<{ resumed: number; failed: number }> {
      const stranded = await db
        .selectFrom('tasks')
        .select(['id', 'attempts'])
        .where('status', '=', 'running')
        .execute();
      let resumed = 0;
      let failed = 0;
      for (const task of stranded) {
        if (task.attempts < maxAttempts) {
          await db
            .updateTable('tasks')
            .set({ status: 'queued', progress: 0, updated_at: Date.now() })
            .where('id', '=', task.id)
            .where('status', '=', 'running')
            .execute();
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
