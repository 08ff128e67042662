// Public surface of the product API client.
export { ApiError, apiBase, apiRequest } from './client';
export type { RequestOptions } from './client';
export { onNotLoggedIn, type NotLoggedIn } from './not-logged-in';
export { accountsApi } from './accounts';
export { paymentsApi } from './payments';
export type { Attribution, LedgerEntry, LedgerPage, LoginResult, UserInfo } from './accounts';
export { playgroundApi } from './playground';
export { dashboardApi, historyApi } from './dashboard';
export { apiUpload, type UploadOptions } from './upload';
export type { FeatureState, MediaInfo, SampleModel, TaskOutputView, TaskView } from './types';
export type {
  ApiKeyView,
  ApiRequestEntry,
  ApiRequestPage,
  LedgerTask,
  SharedResult,
  ShareLinkView,
  UsageReport,
} from './types';
