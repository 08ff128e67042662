// Typed dashboard calls of the developer tools: key credit caps, the webhook delivery log and redelivery, the CSV usage
// export (server/routes/developer-dashboard.ts).
import { MESSAGES } from '../product-rules';
import type { KeyCapView, WebhookAttemptView } from '../api-contract';
import { apiBase, apiRequest, ApiError, authHeaders, settle, type Envelope } from './client';

const json = <T>(path: string, body: Record<string, unknown> = {}) => apiRequest<T>(path, body, { json: true });

export type { KeyCapView, WebhookAttemptView };
export interface CapChange {
  dailyCap?: number | null;
  monthlyCap?: number | null;
}

export const developerToolsApi = {
  keyCaps: () => json<{ list: KeyCapView[] }>('/apply/keys/caps').then((d) => d.list),
  /** null removes a cap; a cap left out is kept. */
  setKeyCaps: (keyId: string, caps: CapChange) => json<KeyCapView>('/apply/keys/set_caps', { keyId, ...caps }),
  webhookDeliveries: (q: { failedOnly?: boolean; before?: number; limit?: number }) =>
    json<{ list: WebhookAttemptView[]; nextBefore: number | null }>('/apply/webhooks/deliveries', q),
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
