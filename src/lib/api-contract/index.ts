// Entry of the API contract (browser-safe, zod and src/lib/product-rules only): request and answer schemas, operations,
// error catalogue, OpenAPI document. The account, task view and tracking schemas only types use are imported by path.
export {
  buildOpenApiDocument,
  requestSchema,
  responseSchema,
  API_VERSION,
  type DocumentOptions,
  type OpenApiDocument,
  type OpenApiOperation,
  type JsonSchema,
} from './document';
export { OPERATIONS, operationById, IDEMPOTENCY_HEADER, type Operation, type Tag } from './operations';
export { ERROR_CATALOGUE, errorRows, type ErrorEntry, type ErrorKey } from './errors';
export * from './schemas';
export * from './task-schemas';
export * from './call-bodies';
export * from './public-task-schemas';
export { toolFeature, toolTaskInput, type ToolTaskInput } from './tool-task-input';
export * from './offer';
export { taskEventsQuery, type TaskEventsQuery } from './live-status';
export { signedText, messageSignedText, type SignedBatchFields } from './tracking';
export { WEBHOOK_VERIFY_SAMPLE } from './webhook-sample';
export * from './developer-tools';
export type { RequestBody } from './request-body';
