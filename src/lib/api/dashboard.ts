// Typed dashboard and history calls: named API keys, the request log, usage, share links and re-run
// (server/routes/keys.ts, share.ts, playground.ts).
import { SHARE_LINKS } from '../product-rules';
import { PLAYGROUND_PREFIX } from '../product-rules';
import { apiRequest } from './client';
import type {
  ApiKeyList,
  ApiRequestPage,
  CreatedApiKey,
  SharedResult,
  ShareLinkList,
  ShareLinkView,
  TaskView,
  UsageReport,
} from './types';

const json = <T>(path: string, body: Record<string, unknown> = {}) => apiRequest<T>(path, body, { json: true });

export const dashboardApi = {
  keys: () => json<ApiKeyList>('/apply/keys/list').then((d) => d.list),
  /** The answer's `key` is the whole secret, shown this once. */
  createKey: (name: string) => json<CreatedApiKey>('/apply/keys/create', { name }),
  revokeKey: (keyId: string) => json<null>('/apply/keys/revoke', { keyId }),
  requests: (page: number, pageSize: number) => json<ApiRequestPage>('/apply/requests', { page, pageSize }),
  /** Days start at the browser's local midnight. */
  usage: (tzOffset = new Date().getTimezoneOffset()) => json<UsageReport>('/apply/usage', { tzOffset }),
};

export const historyApi = {
  rerun: (taskId: string) => json<TaskView>(`${PLAYGROUND_PREFIX}/video_tools/v1/rerun`, { taskId }),
  share: (taskId: string, days: number) => json<ShareLinkView>('/share/v1/create', { taskId, days }),
  shares: (taskId: string) => json<ShareLinkList>('/share/v1/list', { taskId }).then((d) => d.list),
  revokeShare: (shareId: string) => json<null>('/share/v1/revoke', { shareId }),
  /** The public view of a shared result; needs no account. */
  shared: (token: string) =>
    apiRequest<SharedResult>(
      `/share/v1/view?${SHARE_LINKS.tokenParam}=${encodeURIComponent(token)}`,
      {},
      { method: 'GET' },
    ),
};
