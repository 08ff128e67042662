// Typed dashboard and history calls: usage (server/routes/keys.ts) and re-run (server/routes/playground.ts).
import { apiRequest } from './client';
import type { TaskView, UsageReport } from './types';

const json = <T>(path: string, body: Record<string, unknown> = {}) => apiRequest<T>(path, body, { json: true });

export const dashboardApi = {
  /** Days start at the browser's local midnight. */
  usage: (tzOffset = new Date().getTimezoneOffset()) => json<UsageReport>('/apply/usage', { tzOffset }),
};

export const historyApi = {
  rerun: (taskId: string) => json<TaskView>('/api-playground/video_tools/v1/rerun', { taskId }),
};
