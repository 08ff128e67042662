// Times every answer by method, route pattern and status: one histogram observe per request, nothing awaited.
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { httpRequestDuration } from './registry';

/**
 * The route is the pattern that answered (`/api-playground/task/:id`, `/*` for the site and 404s), never the raw
 * path, so ids in paths cannot grow the label set. Mounted first, so the time includes every other middleware.
 */
export function httpMetrics(): MiddlewareHandler {
  return async (c, next) => {
    const start = performance.now();
    await next();
    httpRequestDuration.observe({ method: c.req.method, route: routePath(c), status: c.res.status }, (performance.now() - start) / 1000);
  };
}
