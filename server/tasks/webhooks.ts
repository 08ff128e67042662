// Task webhooks signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature v1,…), stored and
// retried with backoff.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { MediaRow, Schema, TaskRow } from '../db';
import type { Logger } from '../log';
import { outboundUrlProblem, type OutboundPolicy } from '../http/outbound';
import type { MediaService } from '../media';
import { WEBHOOKS } from '../../src/lib/product-rules';
import { dreamView } from './views';
import { postWebhook, recordAttempt } from './webhook-attempts';

/** A user's signing secret, created on first use: whsec_ + base64 of 24 random bytes. */
export async function webhookSecret(db: Kysely<Schema>, userId: string, rotate = false): Promise<string> {
  if (!rotate) {
    const row = await db
      .selectFrom('webhook_secrets')
      .select('secret')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (row) return row.secret;
  }
  const secret = WEBHOOKS.secretPrefix + randomBytes(24).toString('base64');
  await db
    .insertInto('webhook_secrets')
    .values({ user_id: userId, secret, created_at: Date.now() })
    .onConflict((oc) =>
      rotate ? oc.column('user_id').doUpdateSet({ secret, created_at: Date.now() }) : oc.column('user_id').doNothing(),
    )
    .execute();
  // When two first uses raced, both answer with the stored winner.
  return (
    await db.selectFrom('webhook_secrets').select('secret').where('user_id', '=', userId).executeTakeFirstOrThrow()
  ).secret;
}

/** Standard Webhooks signature: base64 HMAC-SHA256, keyed by the secret's base64 part, over "id.timestamp.body". */
export function signWebhook(secret: string, id: string, timestampS: number, body: string): string {
  const key = Buffer.from(
    secret.startsWith(WEBHOOKS.secretPrefix) ? secret.slice(WEBHOOKS.secretPrefix.length) : secret,
    'base64',
  );
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampS}.${body}`).digest('base64')}`;
}

/**
 * The Standard Webhooks headers of one send of a message: its id unchanged, a fresh timestamp and signature each time.
 */
export async function signedHeaders(
  db: Kysely<Schema>,
  row: { id: string; user_id: string; payload: string },
): Promise<Record<string, string>> {
  const secret = await webhookSecret(db, row.user_id);
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    'webhook-id': row.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, row.id, timestamp, row.payload),
  };
}

/**
 * Why a callbackUrl is refused at submit, or null: http(s), and a host that resolves to public addresses only
 * (unless private targets are allowed). Each delivery is checked again, since the name may resolve otherwise later.
 */
export function callbackUrlProblem(url: string, allowPrivate: boolean): Promise<string | null> {
  return outboundUrlProblem(url, { allowPrivate });
}

/** Stores the webhook of a finished task inside the transaction that finished it (nothing sent, nothing lost). */
export function webhookRecorder(media: MediaService) {
  return async (trx: Transaction<Schema>, task: TaskRow) => {
    if (!task.callback_url) return;
    const files: MediaRow[] = await trx.selectFrom('media').selectAll().where('task_id', '=', task.id).execute();
    const now = Date.now();
    const payload = JSON.stringify({
      type: `task.${task.status}`,
      timestamp: new Date(now).toISOString(),
      data: dreamView(task, files, media),
    });
    await trx
      .insertInto('webhook_deliveries')
      .values({
        id: `msg_${randomUUID().replaceAll('-', '')}`,
        task_id: task.id,
        user_id: task.user_id,
        url: task.callback_url,
        payload,
        status: 'pending',
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })
      .execute();
  };
}

export interface WebhookDispatcherOptions {
  db: Kysely<Schema>;
  log: Logger;
  retryBaseMs: number;
  maxAttempts: number;
  pollMs?: number;
  /** Which hosts deliveries may reach (server/http/outbound.ts). */
  outbound: OutboundPolicy;
}

/** Sends due webhooks; a non-2xx answer or network error is retried after baseMs × 4^(attempt-1). */
export function webhookDispatcher(o: WebhookDispatcherOptions) {
  let timer: NodeJS.Timeout | undefined;
  let busy: Promise<number> | undefined;
  const pollMs = o.pollMs ?? Math.min(1000, o.retryBaseMs);

  async function deliver(row: Awaited<ReturnType<typeof due>>[number]) {
    const sent = await postWebhook(row.url, await signedHeaders(o.db, row), row.payload, o.outbound);
    const error = sent.error;
    const attempts = row.attempts + 1;
    const now = Date.now();
    const status = error === null ? 'delivered' : attempts >= o.maxAttempts ? 'failed' : 'pending';
    const next = now + o.retryBaseMs * WEBHOOKS.backoffFactor ** (attempts - 1);
    await o.db
      .updateTable('webhook_deliveries')
      .set({ status, attempts, last_error: error, next_attempt_at: next, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    // The delivery log (webhook_attempts) keeps every attempt with what the receiver answered.
    await recordAttempt(o.db, sent, {
      delivery: row,
      attempt: attempts,
      trigger: 'retry',
      nextRetryAt: status === 'pending' ? next : null,
    });
    if (error) o.log.warn('webhook delivery failed', { id: row.id, attempts, error, willRetry: status === 'pending' });
  }

  async function due() {
    return o.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', Date.now())
      .orderBy('next_attempt_at')
      .limit(20)
      .execute();
  }

  /** One pass over due deliveries; returns how many were attempted. */
  async function runDue(): Promise<number> {
    const rows = await due();
    // Lease them first so a second process (or an overlapping pass) does not send them too.
    const lease = Date.now() + WEBHOOKS.timeoutMs + 1000;
    const mine = [];
    for (const row of rows) {
      const leased = await o.db
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: lease })
        .where('id', '=', row.id)
        .where('next_attempt_at', '=', row.next_attempt_at)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(leased.numUpdatedRows) === 1) mine.push(row);
    }
    await Promise.all(mine.map((row) => deliver(row)));
    return mine.length;
  }

  const tick = () => {
    busy = runDue().catch((error: unknown) => {
      o.log.error('webhook pass failed', { error: error instanceof Error ? error.message : String(error) });
      return 0;
    });
    void busy.then(() => {
      if (timer) timer = setTimeout(tick, pollMs);
    });
  };

  return {
    runDue,
    start() {
      if (timer) return;
      timer = setTimeout(tick, 0);
    },
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      await busy;
    },
  };
}
