// Request and answer schemas of the developer tools: key credit caps, the webhook delivery log and redelivery, the
// usage export.
import { z } from 'zod';
import { KEY_CAPS, USAGE_EXPORT, USAGE_EXPORT_MESSAGES, WEBHOOK_LOG } from '../product-rules';
import { looseBoolean } from './task-fields';

const DAY_MS = 24 * 60 * 60 * 1000;
const cap = z
  .union([
    z.coerce
      .number()
      .int('must be a whole number')
      .min(1, 'must be 1 or more')
      .max(KEY_CAPS.maxCredits, `must be at most ${KEY_CAPS.maxCredits}`),
    z.null(),
  ])
  .optional();
const keyId = z.string().trim().min(1, 'is required').max(64);

/** Set a key's caps: a cap left out is kept, null removes it. */
export const keyCapsBody = z.object({
  keyId: keyId.optional().describe('The key to change; the calling key when left out'),
  dailyCap: cap.describe('Credits the key may use per UTC day; null removes the cap'),
  monthlyCap: cap.describe('Credits the key may use per UTC month; null removes the cap'),
});

export const keyCapView = z.object({
  keyId: z.string().describe("The key's id"),
  name: z.string().describe("The key's name"),
  isDefault: z.boolean().describe('Whether it is the default key'),
  dailyCap: z.number().int().nullable().describe('Credits per UTC day; null: no cap'),
  monthlyCap: z.number().int().nullable().describe('Credits per UTC month; null: no cap'),
  usedToday: z.number().int().describe('Credits its tasks used today (UTC): held while running, charged once finished'),
  usedThisMonth: z.number().int().describe('Credits its tasks used this month (UTC)'),
  dayResetsAt: z.number().int().describe('Unix milliseconds of the next UTC midnight, when the daily use starts again'),
  monthResetsAt: z.number().int().describe("Unix milliseconds of the next month's start (UTC)"),
});
export type KeyCapView = z.infer<typeof keyCapView>;
export const keyCapsData = z.object({
  list: z.array(keyCapView).describe('Every key of the account, the default key first'),
});

export const webhookDeliveriesBody = z.object({
  taskId: z.string().trim().min(1).max(64).optional().describe('Only the deliveries of this task'),
  failedOnly: looseBoolean.default(false).describe('Only attempts that did not get a 2xx answer'),
  before: z.coerce.number().int().min(1).optional().describe('The nextBefore of the previous page'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(WEBHOOK_LOG.maxPageSize, `must be at most ${WEBHOOK_LOG.maxPageSize}`)
    .default(WEBHOOK_LOG.defaultPageSize)
    .describe('Attempts per page'),
});

export const webhookAttemptView = z.object({
  id: z.number().int().describe("The attempt's id, newest highest"),
  deliveryId: z
    .string()
    .describe('The message id, sent as webhook-id (the same on every attempt of one message): pass it to redeliver'),
  taskId: z.string().describe('The task the message is about'),
  eventType: z.string().describe('task.succeeded, task.failed or task.canceled'),
  url: z.string().describe('Where it was sent'),
  attempt: z.number().int().describe('1 for the first send, then 2, 3…'),
  trigger: z.enum(['retry', 'redeliver']).describe('retry: sent by the schedule; redeliver: asked for by you'),
  statusCode: z.number().int().nullable().describe("Your endpoint's HTTP status; null when it did not answer"),
  ok: z.boolean().describe('Whether it answered 2xx'),
  error: z.string().nullable().describe('Why the attempt failed, when it did'),
  latencyMs: z.number().int().describe('Milliseconds from sending to the answer (or the failure)'),
  responseHead: z
    .string()
    .nullable()
    .describe(`The first ${WEBHOOK_LOG.responseHeadBytes} bytes of your endpoint's answer`),
  nextRetryAt: z
    .number()
    .int()
    .nullable()
    .describe('When the next attempt was scheduled after this one failed (Unix milliseconds); null when none follows'),
  deliveryStatus: z.enum(['pending', 'delivered', 'failed']).describe('Where the message stands now'),
  createdAt: z.number().int().describe('When the attempt was made (Unix milliseconds)'),
});
export type WebhookAttemptView = z.infer<typeof webhookAttemptView>;
export const webhookAttemptsData = z.object({
  list: z.array(webhookAttemptView).describe('Attempts, newest first'),
  nextBefore: z.number().int().nullable().describe('Pass as before for the next page; null on the last page'),
});

export const redeliverBody = z.object({
  deliveryId: z.string().trim().min(1, 'is required').max(100).describe('The deliveryId (webhook-id) to send again'),
});

// A refinement rather than z.iso.date(): the document then says "format date", not zod's long pattern.
const day = z
  .string()
  .refine((v) => {
    const ms = Date.parse(`${v}T00:00:00Z`);
    // 2026-02-30 parses as 2 March: only a day that reads back the same is one.
    return /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(v);
  }, 'must be a date YYYY-MM-DD')
  .meta({ format: 'date' });
/** A range of UTC days, both ends included. */
export const usageExportBody = z
  .object({ from: day.describe('First UTC day, YYYY-MM-DD'), to: day.describe('Last UTC day, YYYY-MM-DD (included)') })
  .refine((b) => b.from <= b.to, { message: USAGE_EXPORT_MESSAGES.rangeOrder, path: ['to'] })
  .refine((b) => Date.parse(b.to) - Date.parse(b.from) < USAGE_EXPORT.maxRangeDays * DAY_MS, {
    message: USAGE_EXPORT_MESSAGES.rangeTooLong,
    path: ['to'],
  });
export type UsageRange = z.infer<typeof usageExportBody>;

export const usageRow = z.object({
  kind: z.enum(['task', 'ledger']).describe('task: one generation; ledger: one credit movement'),
  id: z.string().describe("The task id, or the ledger row's id"),
  time: z.string().meta({ format: 'date-time' }).describe('When the task was submitted or the credits moved (UTC)'),
  feature: z.string().nullable().describe('The feature a task ran; null for ledger rows'),
  engine: z.string().nullable().describe('The engine that ran it'),
  status: z.string().nullable().describe('queued, running, succeeded, failed or canceled'),
  source: z.string().nullable().describe('api or playground'),
  creditsHeld: z.number().int().nullable().describe('Held at submit'),
  creditsCharged: z.number().int().nullable().describe('Charged once finished; null while running'),
  creditsRefunded: z.number().int().nullable().describe('Returned of the hold once finished'),
  delta: z.number().int().nullable().describe("A ledger row's change: negative spends, positive adds"),
  balanceAfter: z.number().int().nullable().describe('The balance after a ledger row'),
  reason: z.string().nullable().describe('Why credits moved, e.g. task-hold, task-refund, purchase'),
  reference: z.string().nullable().describe('What a ledger row is about, e.g. a task id'),
  requestId: z.string().nullable().describe('X-Request-Id of the public API call that submitted the task'),
  keyName: z.string().nullable().describe('The API key the task was submitted with'),
});
export type UsageRow = z.infer<typeof usageRow>;

/** The columns a task or a ledger row leaves empty, in the schema's order (the JSON rows keep it). */
const NO_USAGE_COLUMNS = {
  feature: null,
  engine: null,
  status: null,
  source: null,
  creditsHeld: null,
  creditsCharged: null,
  creditsRefunded: null,
  delta: null,
  balanceAfter: null,
  reason: null,
  reference: null,
  requestId: null,
  keyName: null,
};
type UsageTaskColumns = Omit<UsageRow, 'kind' | 'delta' | 'balanceAfter' | 'reason' | 'reference'>;
type UsageLedgerColumns = Pick<UsageRow, 'id' | 'time' | 'delta' | 'balanceAfter' | 'reason' | 'reference'>;

/** A task's row of the export: the ledger columns empty. */
export function usageTaskRow({ id, time, ...task }: UsageTaskColumns): UsageRow {
  return { kind: 'task', id, time, ...NO_USAGE_COLUMNS, ...task };
}

/** A credit movement's row of the export: the task columns empty. */
export function usageLedgerRow({ id, time, ...entry }: UsageLedgerColumns): UsageRow {
  return { kind: 'ledger', id, time, ...NO_USAGE_COLUMNS, ...entry };
}
export const usageExportData = z.object({
  from: z.string().describe('As asked'),
  to: z.string().describe('As asked'),
  rows: z
    .array(usageRow)
    .describe('Tasks submitted in the range, oldest first, then the credit movements of the range, oldest first'),
});
