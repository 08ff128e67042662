// Types of the developer-tool calls of the public API (key credit caps, the webhook delivery log, the usage export),
// inferred from the zod schemas of src/lib/api-contract/developer-tools.ts.
import type { z } from 'zod';
import type * as C from '../api-contract';
import type { RequestBody as Body } from '../api-contract/request-body';

/** A key's caps and what it used today and this month. */
export type KeyCaps = z.output<typeof C.keyCapView>;
export type KeyCapsList = z.output<typeof C.keyCapsData>;
/** A cap left out is kept; null removes it. A key may lower its own caps, not raise them. */
export type SetKeyCapsRequest = Body<typeof C.keyCapsBody>;

export type WebhookAttempt = z.output<typeof C.webhookAttemptView>;
export type WebhookAttemptPage = z.output<typeof C.webhookAttemptsData>;
export type WebhookDeliveriesRequest = Body<typeof C.webhookDeliveriesBody>;
export type RedeliverRequest = Body<typeof C.redeliverBody>;

export type UsageRow = z.output<typeof C.usageRow>;
/** UTC days, YYYY-MM-DD, both included. */
export type UsageExportRequest = Body<typeof C.usageExportBody>;
export type UsageExport = z.output<typeof C.usageExportData>;
