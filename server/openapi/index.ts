// Entry of server/openapi: the route serving the OpenAPI document built from src/lib/api-contract.
export { openApiRoutes } from './route';
