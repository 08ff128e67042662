// Public surface of the product API client.
export { ApiError, apiBase, apiRequest, onNotLoggedIn } from './client';
export type { NotLoggedIn, RequestOptions } from './client';
export { accountsApi } from './accounts';
export { paymentsApi } from './payments';
export type { Attribution, LedgerEntry, LedgerPage, LoginResult, UserInfo } from './accounts';
export { playgroundApi } from './playground';
export { dashboardApi, historyApi } from './dashboard';
export { apiUpload, type UploadOptions } from './upload';
export type { FeatureState, MediaInfo, SampleModel, TaskOutputView, TaskView } from './types';
export type { LedgerTask, UsageReport } from './types';
