// The app behind METRICS_PORT: /metrics and nothing else, so the port can be opened to the scraper alone.
import { Hono } from 'hono';
import { envelope } from '../http/errors';
import { ERROR_CODES, ERROR_MESSAGES, METRICS } from '../../src/lib/product-rules';
import { metricsHandler, type MetricsRouteOptions } from './route';

export function metricsApp(o: MetricsRouteOptions): Hono {
  const app = new Hono();
  app.get(METRICS.path, metricsHandler(o));
  app.notFound((c) => c.json(envelope(ERROR_CODES.notFound, ERROR_MESSAGES.notFound), 404));
  return app;
}
