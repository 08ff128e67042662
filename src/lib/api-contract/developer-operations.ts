// Operations of the developer tools for the OpenAPI document and the reference: key credit caps, the webhook delivery
// log, the usage export.
import { KEY_CAPS, USAGE_EXPORT, WEBHOOK_LOG, WEBHOOKS } from '../product-rules';
import type { ErrorKey } from './errors';
import type { Operation } from './operation-shape';
import {
  keyCapsBody,
  keyCapsData,
  keyCapView,
  redeliverBody,
  usageExportBody,
  usageExportData,
  usageLedgerRow,
  usageTaskRow,
  webhookAttemptsData,
  webhookAttemptView,
  webhookDeliveriesBody,
} from './developer-tools';

const authErrors: ErrorKey[] = ['notLoggedIn', 'rateLimited', 'internal'];
const EXAMPLE_KEY = {
  keyId: '5f1c2a9e-3b7d-4e21-9c4a-8d6e0f2b7a13',
  name: 'Production server',
  isDefault: false,
  dailyCap: 500,
  monthlyCap: 10000,
  usedToday: 120,
  usedThisMonth: 2310,
  dayResetsAt: 1760054400000,
  monthResetsAt: 1761955200000,
};
const EXAMPLE_ATTEMPT = {
  id: 812,
  deliveryId: 'msg_2b7d4e219c4a8d6e0f2b7a135f1c2a9e',
  taskId: 'b3c1e9a4-7d2f-4c8e-9a51-6f0d2e8b4c17',
  eventType: 'task.succeeded',
  url: 'https://example.com/hooks/dreamapi',
  attempt: 1,
  trigger: 'retry',
  statusCode: 503,
  ok: false,
  error: 'HTTP 503',
  latencyMs: 184,
  responseHead: 'Service Unavailable',
  nextRetryAt: 1760000005000,
  deliveryStatus: 'pending',
  createdAt: 1760000000000,
};

export const DEVELOPER_OPERATIONS: readonly Operation[] = [
  {
    id: 'keyCaps',
    method: 'post',
    path: '/api/keys/caps',
    tag: 'Account',
    summary: 'Credit caps of your keys',
    description:
      'Every key of the account with its daily and monthly credit caps and what it used today and this month (UTC). A submit whose hold would pass a cap of its key is refused with 40021.',
    auth: 'bearer',
    response: { schema: keyCapsData, example: { list: [EXAMPLE_KEY] } },
    errors: authErrors,
  },
  {
    id: 'setKeyCaps',
    method: 'post',
    path: '/api/keys/set_caps',
    tag: 'Account',
    summary: "Set a key's credit caps",
    description: `Sets the daily and monthly credit caps of a key (1 to ${KEY_CAPS.maxCredits}; null removes one, a cap left out is kept). A key may lower its own caps but not raise or remove them, so a leaked key cannot lift its limit: use the dashboard or another key for that.`,
    auth: 'bearer',
    request: {
      schema: keyCapsBody,
      contentType: 'application/json',
      example: { dailyCap: 500 },
      fields: { keyId: 'A key id from keys/caps; the calling key when left out' },
    },
    response: { schema: keyCapView, example: EXAMPLE_KEY },
    errors: ['illegalParameter', 'forbidden', 'notFound', 'suspended', ...authErrors],
  },
  {
    id: 'webhookDeliveries',
    method: 'post',
    path: '/api/webhooks/deliveries',
    tag: 'Tasks',
    summary: 'Webhook delivery log',
    description: `Every attempt to deliver your task webhooks, newest first: when, where, your endpoint's status, the latency, the first ${WEBHOOK_LOG.responseHeadBytes} bytes of its answer and when the next retry was scheduled (up to ${WEBHOOKS.maxAttempts} attempts). Kept as long as the task.`,
    auth: 'bearer',
    request: {
      schema: webhookDeliveriesBody,
      contentType: 'application/json',
      example: { failedOnly: true, limit: WEBHOOK_LOG.defaultPageSize },
    },
    response: { schema: webhookAttemptsData, example: { list: [EXAMPLE_ATTEMPT], nextBefore: null } },
    errors: ['illegalParameter', ...authErrors],
  },
  {
    id: 'redeliverWebhook',
    method: 'post',
    path: '/api/webhooks/redeliver',
    tag: 'Tasks',
    summary: 'Redeliver a webhook',
    description:
      'Sends a stored webhook again now: the same event (webhook-id and body unchanged) with a fresh webhook-timestamp and webhook-signature. Answers the attempt; a 2xx marks the message delivered.',
    auth: 'bearer',
    request: {
      schema: redeliverBody,
      contentType: 'application/json',
      example: { deliveryId: EXAMPLE_ATTEMPT.deliveryId },
    },
    response: {
      schema: webhookAttemptView,
      example: {
        ...EXAMPLE_ATTEMPT,
        id: 813,
        attempt: 2,
        trigger: 'redeliver',
        statusCode: 200,
        ok: true,
        error: null,
        responseHead: 'ok',
        nextRetryAt: null,
        deliveryStatus: 'delivered',
      },
    },
    errors: ['illegalParameter', 'notFound', 'suspended', ...authErrors],
  },
  {
    id: 'usageExport',
    method: 'post',
    path: '/api/usage/export',
    tag: 'Account',
    summary: 'Export usage',
    description: `Your tasks and credit movements of a range of UTC days (at most ${USAGE_EXPORT.maxRangeDays}), one row per task or ledger row, with the feature, engine, credits held, charged and refunded, status and the X-Request-Id of the call that submitted the task. The rows array is streamed as it is read; the dashboard offers the same as CSV.`,
    auth: 'bearer',
    request: {
      schema: usageExportBody,
      contentType: 'application/json',
      example: { from: '2026-01-01', to: '2026-01-31' },
    },
    response: {
      schema: usageExportData,
      example: {
        from: '2026-01-01',
        to: '2026-01-31',
        rows: [
          usageTaskRow({
            id: 'b3c1e9a4-7d2f-4c8e-9a51-6f0d2e8b4c17',
            time: '2026-01-05T09:12:44.210Z',
            feature: 'tts-common',
            engine: 'elevenlabs',
            status: 'succeeded',
            source: 'api',
            creditsHeld: 2,
            creditsCharged: 1,
            creditsRefunded: 1,
            requestId: '0e5c7b1a-9f3d-4c22-8a6e-2b4d6f8a0c13',
            keyName: 'Production server',
          }),
          usageLedgerRow({
            id: '4411',
            time: '2026-01-05T09:12:44.215Z',
            delta: -2,
            balanceAfter: 118,
            reason: 'task-hold',
            reference: 'b3c1e9a4-7d2f-4c8e-9a51-6f0d2e8b4c17',
          }),
        ],
      },
    },
    errors: ['illegalParameter', ...authErrors],
  },
];
