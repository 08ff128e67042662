// Times every answer by method, route pattern and status: one histogram observe per request, nothing awaited.
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { httpRequestDuration } from './registry';

type Series = ReturnType<typeof httpRequestDuration.labels>;

/** route → method → status → the histogram's child: found without building a label object or key string per request. */
const series = new Map<string, Map<string, Map<number, Series>>>();

function seriesOf(route: string, method: string, status: number): Series {
  let byMethod = series.get(route);
  if (!byMethod) series.set(route, (byMethod = new Map()));
  let byStatus = byMethod.get(method);
  if (!byStatus) byMethod.set(method, (byStatus = new Map()));
  let child = byStatus.get(status);
  if (!child) byStatus.set(status, (child = httpRequestDuration.labels(method, route, String(status))));
  return child;
}

/**
 * The route is the pattern that answered (`/api-playground/task/:id`, `/*` for the site and 404s), never the raw
 * path, so ids in paths cannot grow the label set. Mounted first, so the time includes every other middleware.
 */
export function httpMetrics(): MiddlewareHandler {
  return async (c, next) => {
    const start = performance.now();
    await next();
    seriesOf(routePath(c), c.req.method, c.res.status).observe((performance.now() - start) / 1000);
  };
}
