// The webhook delivery log a user reads (every attempt, newest first, failed only on request) and redelivery of a
// message.
import type { Kysely } from 'kysely';
import type { Schema } from '../db';
import { AppError } from '../http/errors';
import type { OutboundPolicy } from '../http/outbound';
import { ERROR_CODES, WEBHOOK_LOG_MESSAGES } from '../../src/lib/product-rules';
import type { WebhookAttemptView } from '../../src/lib/api-contract';
import { postWebhook, recordAttempt } from './webhook-attempts';
import { signedHeaders } from './webhooks';

export interface AttemptQuery {
  taskId?: string;
  failedOnly: boolean;
  before?: number;
  limit: number;
}

function attempts(db: Kysely<Schema>, userId: string) {
  return db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .leftJoin('tasks as t', 't.id', 'a.task_id')
    .select([
      'a.id',
      'a.delivery_id',
      'a.task_id',
      'a.url',
      'a.attempt',
      'a.trigger',
      'a.status_code',
      'a.ok',
      'a.error',
      'a.latency_ms',
      'a.response_head',
      'a.next_retry_at',
      'a.created_at',
      'd.status as delivery_status',
      't.status as task_status',
    ])
    .where('a.user_id', '=', userId);
}

type AttemptRow = Awaited<ReturnType<ReturnType<typeof attempts>['execute']>>[number];

function view(r: AttemptRow): WebhookAttemptView {
  return {
    id: Number(r.id),
    deliveryId: r.delivery_id,
    taskId: r.task_id,
    eventType: `task.${r.task_status ?? 'finished'}`,
    url: r.url,
    attempt: r.attempt,
    trigger: r.trigger,
    statusCode: r.status_code,
    ok: r.ok === 1,
    error: r.error,
    latencyMs: r.latency_ms,
    responseHead: r.response_head,
    nextRetryAt: r.next_retry_at === null ? null : Number(r.next_retry_at),
    deliveryStatus: r.delivery_status as WebhookAttemptView['deliveryStatus'],
    createdAt: Number(r.created_at),
  };
}

/**
 * One page of a user's attempts, newest first, by keyset on the attempt id (`before` is the previous page's
 * nextBefore).
 */
export async function listWebhookAttempts(
  db: Kysely<Schema>,
  userId: string,
  q: AttemptQuery,
): Promise<{ list: WebhookAttemptView[]; nextBefore: number | null }> {
  let query = attempts(db, userId);
  if (q.taskId) query = query.where('a.task_id', '=', q.taskId);
  if (q.failedOnly) query = query.where('a.ok', '=', 0);
  if (q.before !== undefined) query = query.where('a.id', '<', q.before);
  const rows = await query
    .orderBy('a.id', 'desc')
    .limit(q.limit + 1)
    .execute();
  const page = rows.slice(0, q.limit).map(view);
  return { list: page, nextBefore: rows.length > q.limit ? page.at(-1)!.id : null };
}

/**
 * Sends a stored message again now, as the same event (webhook-id unchanged) with a fresh timestamp and signature, and
 * logs the attempt. A 2xx marks the message delivered (no retry follows); a failure leaves the schedule as it was.
 */
export async function redeliverWebhook(
  db: Kysely<Schema>,
  userId: string,
  deliveryId: string,
  outbound: OutboundPolicy,
): Promise<WebhookAttemptView> {
  const delivery = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', deliveryId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!delivery) throw new AppError(404, ERROR_CODES.notFound, WEBHOOK_LOG_MESSAGES.deliveryNotFound);
  const sent = await postWebhook(delivery.url, await signedHeaders(db, delivery), delivery.payload, outbound);
  const { last } = await db
    .selectFrom('webhook_attempts')
    .select((eb) => eb.fn.max('attempt').as('last'))
    .where('delivery_id', '=', deliveryId)
    .executeTakeFirstOrThrow();
  const id = await recordAttempt(db, sent, {
    delivery,
    attempt: Math.max(Number(last ?? 0), delivery.attempts) + 1,
    trigger: 'redeliver',
    nextRetryAt: null,
  });
  if (sent.ok)
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'delivered', last_error: null, updated_at: Date.now() })
      .where('id', '=', deliveryId)
      .execute();
  return view(await attempts(db, userId).where('a.id', '=', id).executeTakeFirstOrThrow());
}
