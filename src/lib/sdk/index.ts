// The DreamAPI TypeScript SDK: a typed client for the public API and a Standard Webhooks verifier.
export {
  createDreamApiClient,
  DreamApiError,
  OPERATIONS,
  type ClientOptions,
  type DreamApiClient,
  type OperationId,
  type SubmitOptions,
} from './client';
export {
  verifyWebhook,
  webhookProblem,
  signature,
  DEFAULT_TOLERANCE_S,
  type VerifyInput,
  type HeaderSource,
} from './webhooks';
export { StreamRefused, type StreamOptions, type WaitOptions } from './stream';
export { readEvents, type SseEvent } from './sse';
export type * from './types';
