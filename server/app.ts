// Builds the API host's Hono app from its dependencies; never listens (tests call app.request()).
import { Hono, type Env, type MiddlewareHandler, type Schema } from 'hono';
import { ERROR_CODES, ERROR_MESSAGES, METRICS, REQUEST_ID } from '../src/lib/product-rules';
import type { AppDeps } from './routes/deps';
import { errorEnvelope, errorResponder } from './http/errors';
import { collectorRefusals, httpMetrics, metricsHandler } from './metrics';
import { traceRequests } from './telemetry/http-spans';
import { requestId } from './telemetry/request-id';
import { activeTracer } from './telemetry/tracing';
import { closeConnectionAfterAnswer } from './http/graceful-close';
import { corsHeaders } from './http/cors';
import { compression } from './http/compression';
import { securityHeaders } from './http/security';
import { userRoutes } from './routes/accounts';
import { accountsContext } from './routes/accounts-context';
import { bodyCap } from './routes/body-cap';
import { healthRoutes, readinessRoutes } from './routes/health';
import { engineHookRoutes } from './routes/engine-hooks';
import { keyRoutes } from './routes/keys';
import { developerDashboardRoutes } from './routes/developer-dashboard';
import { mediaRoutes } from './routes/media';
import { contactRoutes } from './routes/contact';
import { paymentRoutes } from './routes/payments';
import { PLAYGROUND_PREFIX, playgroundRoutes } from './routes/playground';
import { isPublicApiPath, PUBLIC_API_PREFIX, publicApiRoutes, refusal } from './routes/public-api';
import { createRequestLog } from './accounts/request-log';
import { createUploadGate } from './media';
import { SHARE_PREFIX, shareRoutes } from './routes/share';
import { playgroundTaskEvents, publicTaskEvents } from './routes/task-events';
import { TRACKING_PREFIX, trackingRoutes } from './routes/tracking';
import { voicePreviewRoutes } from './routes/voice-preview';
import { workerScriptPolicy } from './tracking/worker-policy';
import { staticSite } from './site/static';

/** One area of the API host: a sub-app mounted under its prefix. */
interface Area {
  prefix: string;
  /** Mounts the sub-app under the prefix (each sub-app has an environment of its own, hence a closure). */
  mount: (app: Hono) => void;
  /**
   * Its answers carry session tokens, keys and account data, so no browser or proxy cache may keep them. The media
   * downloads and voice previews keep their own caching (as does the static site, which is no area).
   */
  private: boolean;
  /** Middleware that runs before the area's own (its body caps included). */
  before?: MiddlewareHandler;
}

/** Every area in the order it is mounted: a path an earlier area answers never reaches a later one. */
function areas(deps: AppDeps): Area[] {
  const accounts = accountsContext(deps);
  // Written by the public API, read by the dashboard: one log, so a page of requests includes the calls still pending.
  const requestLog = deps.requestLog ?? createRequestLog(deps.database.db, deps.log);
  // One gate for both upload paths: the caps count every upload this process is receiving.
  const uploads = deps.uploadGate ?? createUploadGate(deps.config.uploads);
  const area = <E extends Env, S extends Schema, B extends string>(
    prefix: string,
    routes: Hono<E, S, B>,
    more: Pick<Partial<Area>, 'private' | 'before'> = {},
  ): Area => ({ prefix, mount: (app) => void app.route(prefix, routes), private: true, ...more });
  return [
    area('/healthz', healthRoutes(deps)),
    area('/readyz', readinessRoutes(deps)),
    area('/engine-hooks', engineHookRoutes(deps)),
    area(TRACKING_PREFIX, trackingRoutes(deps), { before: collectorRefusals() }),
    area('/user', userRoutes(accounts)),
    area('/apply', keyRoutes(accounts, requestLog)),
    area('/apply', developerDashboardRoutes(accounts, deps.config.tasks.outboundAllowPrivate)),
    // Live status streams (SSE) before their areas, whose body caps and handlers would otherwise answer them first.
    area(PLAYGROUND_PREFIX, playgroundTaskEvents(deps)),
    area(PUBLIC_API_PREFIX, publicTaskEvents(deps, requestLog)),
    area(PLAYGROUND_PREFIX, playgroundRoutes(deps, uploads)),
    area('/voice-preview', voicePreviewRoutes(deps), { private: false }),
    area(PUBLIC_API_PREFIX, publicApiRoutes(deps, requestLog, uploads)),
    area('/media', mediaRoutes(deps), { private: false }),
    area(SHARE_PREFIX, shareRoutes(deps)),
    area('/payment', paymentRoutes(deps)),
    area('/contact', contactRoutes(deps)),
  ];
}

export function createApp(deps: AppDeps) {
  const { config, log } = deps;
  const app = new Hono();
  const mounted = areas(deps);
  // The whole first segment an area lives under (/spider of /spider/api/v1), so its 404s are not stored either.
  const privatePrefixes = [...new Set(mounted.filter((a) => a.private).map((a) => `/${a.prefix.split('/')[1]}`))];
  const isApiPath = (path: string) => privatePrefixes.some((p) => path === p || path.startsWith(`${p}/`));
  const site = staticSite({ root: config.siteDir });

  app.onError(errorResponder(log));
  // First: every answer is timed by route pattern and carries its request id (logs and error bodies name it too);
  // with tracing on (OTEL_EXPORTER_OTLP_ENDPOINT), every request is a span.
  app.use(httpMetrics());
  app.use(requestId());
  const tracer = activeTracer();
  if (tracer) app.use(traceRequests(tracer));
  app.use(async (c, next) => {
    await next();
    // A refused body is left unread: the connection cannot carry another request, so it is closed cleanly.
    if (c.res.status === 413) closeConnectionAfterAnswer(c);
    // A successful answer may choose its own caching (the public OpenAPI document); any other, errors included, is
    // never stored.
    if (isApiPath(c.req.path) && !(c.res.ok && c.res.headers.has('Cache-Control')))
      c.res.headers.set('Cache-Control', 'no-store');
  });
  // gzip for text answers (pages, scripts, JSON); media and already-compressed types pass through.
  app.use(compression());
  app.use(securityHeaders({ trustProxy: config.trustProxy }));
  app.use(
    corsHeaders({
      origins: config.siteOrigins,
      allowHeaders: ['Content-Type', 'Authorization', 'token', 'Idempotency-Key'],
      allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      exposeHeaders: [
        'Retry-After',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        REQUEST_ID.header,
      ],
      maxAge: 600,
    }),
  );

  // Prometheus text on this port only for holders of METRICS_TOKEN; METRICS_PORT serves it apart (main.ts).
  const metricsToken = config.ops.metrics.token;
  if (metricsToken) app.get(METRICS.path, metricsHandler({ db: deps.database.db, log, token: metricsToken }));
  // Each area applies its own body caps (routes/body-cap.ts; uploads have theirs).
  for (const { prefix, mount, before } of mounted) {
    if (before) app.use(`${prefix}/*`, before);
    mount(app);
  }

  // Last: the site answers what no area did, under the general cap too (a page takes no large body).
  app.use(bodyCap(config.bodyLimitBytes));
  app.use('/_astro/*', workerScriptPolicy());
  app.use(site.serve);
  app.notFound(async (c) => {
    // No such call or method under /api: answered in the public API's envelope, as its other refusals are.
    if (isPublicApiPath(c.req.path)) return c.json(refusal(ERROR_CODES.notFound, ERROR_MESSAGES.notFound), 404);
    const wantsPage = c.req.method === 'GET' && (c.req.header('accept') ?? '').includes('text/html');
    const page = wantsPage ? await site.notFoundPage(c) : undefined;
    return page ?? c.json(errorEnvelope(ERROR_CODES.notFound, ERROR_MESSAGES.notFound), 404);
  });
  return app;
}

export type App = ReturnType<typeof createApp>;
