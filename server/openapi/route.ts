// GET /api/openapi.json: the OpenAPI document, public, built once per process from the same schemas.
import { Hono } from 'hono';
import type { Config } from '../config';
import { buildOpenApiDocument, type OpenApiDocument } from '../../src/lib/api-contract';

export function openApiRoutes(deps: { config: Pick<Config, 'publicUrl'> }) {
  const app = new Hono();
  let document: OpenApiDocument | undefined;
  // Relative to /api, where the public API area (routes/public-api.ts) serves it.
  app.get('/openapi.json', (c) => {
    document ??= buildOpenApiDocument({ serverUrl: deps.config.publicUrl });
    // Any site may read it (tools and code generators fetch it from elsewhere); it holds nothing private.
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(document);
  });
  return app;
}
