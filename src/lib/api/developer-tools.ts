// Typed dashboard calls of the developer tools: key credit caps, the webhook delivery log and redelivery, the CSV usage
// export (server/routes/developer-dashboard.ts).
import { MESSAGES } from '../product-rules';
import type { KeyCapView, WebhookAttemptView } from '../api-contract';
import type * as C from '../api-contract/developer-tools';
import type { RequestBody } from '../api-contract/request-body';
import type { z } from 'zod';
import { apiBase, apiRequest, ApiError, authHeaders, settle, type Envelope } from './client';

const json = <T>(path: string, body: Record<string, unknown> = {}) => apiRequest<T>(path, body, { json: true });

export type { KeyCapView, WebhookAttemptView };
/** The caps to change of one key (its id goes alongside). */
export type CapChange = Omit<RequestBody<typeof C.keyCapsBody>, 'keyId'>;
type KeyCapList = z.infer<typeof C.keyCapsData>;
type WebhookAttemptPage = z.infer<typeof C.webhookAttemptsData>;
type DeliveriesQuery = Omit<RequestBody<typeof C.webhookDeliveriesBody>, 'taskId'>;

export const developerToolsApi = {
  keyCaps: () => json<KeyCapList>('/apply/keys/caps').then((d) => d.list),
  /** null removes a cap; a cap left out is kept. */
  setKeyCaps: (keyId: string, caps: CapChange) => json<KeyCapView>('/apply/keys/set_caps', { keyId, ...caps }),
  webhookDeliveries: (q: DeliveriesQuery) => json<WebhookAttemptPage>('/apply/webhooks/deliveries', q),
  redeliver: (deliveryId: string) => json<WebhookAttemptView>('/apply/webhooks/redeliver', { deliveryId }),
  /** The CSV of a range of UTC days (YYYY-MM-DD), as a file to save; a refusal is its envelope's error. */
  async usageCsv(from: string, to: string): Promise<Blob> {
    let res: Response;
    try {
      res = await fetch(`${apiBase()}/apply/usage/export`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...authHeaders() },
        body: JSON.stringify({ from, to }),
      });
    } catch (error) {
      throw new ApiError(error instanceof Error && error.message ? error.message : MESSAGES.failed, null);
    }
    if ((res.headers.get('content-type') ?? '').startsWith('text/csv')) return res.blob();
    return settle<never>((await res.json().catch(() => ({ msg: MESSAGES.failed }))) as Envelope);
  },
};
