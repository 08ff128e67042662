// One webhook send timed, with the answer's status and first bytes kept, and its row in the delivery log
// (webhook_attempts).
import type { Kysely } from 'kysely';
import type { Schema, WebhookAttemptsTable } from '../db';
import { outboundFetch, type OutboundPolicy } from '../http/outbound';
import { WEBHOOK_LOG, WEBHOOKS } from '../../src/lib/product-rules';

export interface SendResult {
  statusCode: number | null;
  ok: boolean;
  error: string | null;
  latencyMs: number;
  responseHead: string | null;
}

/** Text a database can store: PostgreSQL refuses NUL in text, and a cut multi-byte character is dropped. */
const storable = (bytes: Buffer) =>
  bytes
    .toString('utf8')
    .replaceAll('\u0000', '')
    .replace(/\uFFFD$/, '');

/**
 * Reads at most `limit` bytes of an answer, then drops the connection: a receiver's large or endless answer costs
 * nothing.
 */
async function head(body: AsyncIterable<Buffer>, limit: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    parts.push(chunk);
    size += chunk.length;
    if (size >= limit) break;
  }
  return Buffer.concat(parts).subarray(0, limit);
}

/**
 * POSTs one signed message through the outbound guard (redirects not followed: a 3xx is a failed attempt like any other
 * non-2xx) and tells how it went; never throws.
 */
export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  outbound: OutboundPolicy,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let statusCode: number | null = null;
  let responseHead: string | null = null;
  try {
    const res = await outboundFetch(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(WEBHOOKS.timeoutMs),
      },
      outbound,
    );
    statusCode = res.status;
    try {
      responseHead = storable(await head(res.body, WEBHOOK_LOG.responseHeadBytes));
    } finally {
      res.close();
    }
    const ok = res.status >= 200 && res.status < 300;
    return { statusCode, ok, error: ok ? null : `HTTP ${res.status}`, latencyMs: elapsed(), responseHead };
  } catch (e) {
    const error = (e instanceof Error ? e.message : String(e)).slice(0, WEBHOOK_LOG.errorMaxChars);
    // An answer whose body broke off after a 2xx status still reached the receiver: it counts as delivered.
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    return { statusCode, ok, error: ok ? null : error, latencyMs: elapsed(), responseHead };
  }
}

export interface AttemptOf {
  delivery: { id: string; task_id: string; user_id: string; url: string };
  attempt: number;
  trigger: WebhookAttemptsTable['trigger'];
  nextRetryAt: number | null;
}

/** Stores one attempt in the delivery log; it goes with its task (TaskService.remove). */
export async function recordAttempt(db: Kysely<Schema>, sent: SendResult, a: AttemptOf): Promise<number> {
  const row = await db
    .insertInto('webhook_attempts')
    .values({
      delivery_id: a.delivery.id,
      task_id: a.delivery.task_id,
      user_id: a.delivery.user_id,
      url: a.delivery.url,
      attempt: a.attempt,
      trigger: a.trigger,
      status_code: sent.statusCode,
      ok: sent.ok ? 1 : 0,
      error: sent.error,
      latency_ms: sent.latencyMs,
      response_head: sent.responseHead,
      next_retry_at: a.nextRetryAt,
      created_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
