// Types of the developer-tool calls of the public API (key credit caps, the webhook delivery log, the usage export),
// from its OpenAPI document.

export interface KeyCaps {
  keyId: string;
  name: string;
  isDefault: boolean;
  /** Credits per UTC day; null: no cap. */
  dailyCap: number | null;
  /** Credits per UTC month; null: no cap. */
  monthlyCap: number | null;
  usedToday: number;
  usedThisMonth: number;
  dayResetsAt: number;
  monthResetsAt: number;
}
/** A cap left out is kept; null removes it. A key may lower its own caps, not raise them. */
export interface SetKeyCapsRequest {
  keyId?: string;
  dailyCap?: number | null;
  monthlyCap?: number | null;
}

export interface WebhookAttempt {
  id: number;
  /** The webhook-id of the message: pass it to redeliverWebhook. */
  deliveryId: string;
  taskId: string;
  eventType: string;
  url: string;
  attempt: number;
  trigger: 'retry' | 'redeliver';
  statusCode: number | null;
  ok: boolean;
  error: string | null;
  latencyMs: number;
  /** The first 512 bytes of your endpoint's answer. */
  responseHead: string | null;
  nextRetryAt: number | null;
  deliveryStatus: 'pending' | 'delivered' | 'failed';
  createdAt: number;
}
export interface WebhookDeliveriesRequest {
  taskId?: string;
  failedOnly?: boolean;
  /** The nextBefore of the previous page. */
  before?: number;
  limit?: number;
}

export interface UsageRow {
  kind: 'task' | 'ledger';
  id: string;
  time: string;
  feature: string | null;
  engine: string | null;
  status: string | null;
  source: string | null;
  creditsHeld: number | null;
  creditsCharged: number | null;
  creditsRefunded: number | null;
  delta: number | null;
  balanceAfter: number | null;
  reason: string | null;
  reference: string | null;
  /** X-Request-Id of the call that submitted the task. */
  requestId: string | null;
  keyName: string | null;
}
/** UTC days, YYYY-MM-DD, both included. */
export interface UsageExportRequest {
  from: string;
  to: string;
}
