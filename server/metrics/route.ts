// GET /metrics: the Prometheus text of this process, behind METRICS_TOKEN on PORT or alone on METRICS_PORT.
import { timingSafeEqual } from 'node:crypto';
import type { Context, Handler } from 'hono';
import type { Kysely } from 'kysely';
import type { Schema } from '../db';
import { envelope } from '../http/errors';
import type { Logger } from '../log';
import { ERROR_CODES, OPERATIONS_MESSAGES } from '../../src/lib/product-rules';
import { collectProcessMetrics, registry } from './registry';
import { refreshTaskGauges } from './task-gauges';

export interface MetricsRouteOptions {
  db: Kysely<Schema>;
  log: Logger;
  /** Required as `Authorization: Bearer <token>`; null serves anyone who reaches the listener (METRICS_PORT). */
  token: string | null;
}

function tokenMatches(c: Context, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

export function metricsHandler(o: MetricsRouteOptions): Handler {
  collectProcessMetrics();
  return async (c) => {
    if (o.token !== null && !tokenMatches(c, o.token)) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return c.json(envelope(ERROR_CODES.notLoggedIn, OPERATIONS_MESSAGES.metricsToken), 401);
    }
    // A database that does not answer leaves the task gauges at their last values; the rest is still worth scraping.
    await refreshTaskGauges(o.db).catch((error: unknown) =>
      o.log.warn('task gauges not refreshed', { error: error instanceof Error ? error.message : String(error) }),
    );
    c.header('Content-Type', registry.contentType);
    c.header('Cache-Control', 'no-store');
    return c.body(await registry.metrics());
  };
}
