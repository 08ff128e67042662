// Entry of server/openapi: the public API's description as data (operations, errors) and as an OpenAPI 3.1 document.
export { buildOpenApiDocument, requestSchema, responseSchema, API_VERSION, type OpenApiDocument, type OpenApiOperation, type JsonSchema } from './document';
export { OPERATIONS, operationById, IDEMPOTENCY_HEADER, type Operation, type Tag } from './operations';
export { ERROR_CATALOGUE, errorRows, type ErrorEntry, type ErrorKey } from './errors';
export { openApiRoutes } from './route';
