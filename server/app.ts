// Builds the API host's Hono app from its dependencies; never listens (tests call app.request()).
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { cors } from 'hono/cors';
import { ERROR_CODES, ERROR_MESSAGES } from '../src/lib/spec/errors';
import type { AppDeps } from './deps';
import { AppError, envelope, errorResponder } from './http/errors';
import { closeConnectionAfterAnswer } from './http/graceful-close';
import { securityHeaders } from './http/security';
import { accountRoutes } from './routes/accounts';
import { healthRoutes } from './routes/health';
import { engineHookRoutes } from './routes/engine-hooks';
import { mediaRoutes } from './routes/media';
import { openApiRoutes } from './openapi';
import { contactRoutes } from './routes/contact';
import { paymentRoutes } from './routes/payments';
import { playgroundRoutes } from './routes/playground';
import { publicApiRoutes } from './routes/public-api';
import { UPLOAD_PATHS } from './routes/task-context';
import { trackingRoutes } from './routes/tracking';
import { workerScriptPolicy } from './tracking/worker-policy';
import { staticSite } from './site/static';

/**
 * The API's paths: their answers carry session tokens, keys and account data, so no browser or proxy cache
 * may keep them. The static site and the signed media downloads keep their own caching.
 */
const API_PREFIXES = ['/user/', '/apply/', '/api/', '/api-playground/', '/spider/', '/payment/', '/contact/', '/engine-hooks/'];
const isApiPath = (path: string) => path === '/healthz' || API_PREFIXES.some((prefix) => path.startsWith(prefix));

export function createApp(deps: AppDeps) {
  const { config, log } = deps;
  const app = new Hono();
  const site = staticSite({ root: config.siteDir });

  app.onError(errorResponder(log));
  app.use(async (c, next) => {
    await next();
    // A refused body is left unread: the connection cannot carry another request, so it is closed cleanly.
    if (c.res.status === 413) closeConnectionAfterAnswer(c);
    // A successful answer may choose its own caching (the public OpenAPI document); any other, errors included, is never stored.
    if (isApiPath(c.req.path) && !(c.res.ok && c.res.headers.has('Cache-Control'))) c.res.headers.set('Cache-Control', 'no-store');
  });
  // gzip for text answers (pages, scripts, JSON); media and already-compressed types pass through.
  app.use(compress());
  app.use(securityHeaders({ trustProxy: config.trustProxy }));
  app.use(
    cors({
      origin: (origin) => (config.siteOrigins.includes(origin) ? origin : null),
      allowHeaders: ['Content-Type', 'Authorization', 'token', 'Idempotency-Key'],
      allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      exposeHeaders: ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
      maxAge: 600,
    }),
  );
  const generalBodyLimit = bodyLimit({
    maxSize: config.bodyLimitBytes,
    onError: () => {
      throw new AppError(413, ERROR_CODES.payloadTooLarge, `${ERROR_MESSAGES.payloadTooLarge}: the limit is ${config.bodyLimitBytes} bytes`);
    },
  });
  // File uploads carry their own, larger cap (server/routes/task-context.ts); every other body keeps this one.
  app.use((c, next) => (UPLOAD_PATHS.includes(c.req.path) ? next() : generalBodyLimit(c, next)));

  app.route('/', healthRoutes(deps));
  app.route('/', engineHookRoutes());
  app.route('/', trackingRoutes(deps));
  app.route('/', accountRoutes(deps));
  app.route('/', playgroundRoutes(deps));
  // Before the public API, whose /api/* key check would otherwise refuse the (public) document.
  app.route('/', openApiRoutes(deps));
  app.route('/', publicApiRoutes(deps));
  app.route('/', mediaRoutes(deps));
  app.route('/', paymentRoutes(deps));
  app.route('/', contactRoutes(deps));

  app.use('/_astro/*', workerScriptPolicy());
  app.use(site.serve);
  app.notFound(async (c) => {
    const wantsPage = c.req.method === 'GET' && (c.req.header('accept') ?? '').includes('text/html');
    const page = wantsPage ? await site.notFoundPage(c) : undefined;
    return page ?? c.json(envelope(ERROR_CODES.notFound, ERROR_MESSAGES.notFound), 404);
  });
  return app;
}

export type App = ReturnType<typeof createApp>;
