// Table types of the developer tools (migration 017): every webhook delivery attempt, for the delivery log.
import type { Generated } from 'kysely';
import type { EpochMs, Flag } from './common.ts';

export interface WebhookAttemptsTable {
  id: Generated<number>;
  /** The webhook_deliveries row (its id is the webhook-id header). */
  delivery_id: string;
  task_id: string;
  user_id: string;
  url: string;
  /** 1, 2, 3… within its delivery. */
  attempt: number;
  /** retry: sent by the dispatcher; redeliver: asked for by the owner. */
  trigger: 'retry' | 'redeliver';
  /** The receiver's HTTP status; null when no answer came. */
  status_code: number | null;
  /** 1 when the receiver answered 2xx. */
  ok: Flag;
  error: string | null;
  latency_ms: number;
  /** The first WEBHOOK_LOG.responseHeadBytes of the answer, as text. */
  response_head: string | null;
  /** When the dispatcher sends it again; null when no retry follows. */
  next_retry_at: EpochMs | null;
  created_at: EpochMs;
}
