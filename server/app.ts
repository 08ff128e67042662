// Builds the API host's Hono app from its dependencies; never listens (tests call app.request()).
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { cors } from 'hono/cors';
import { ERROR_CODES, ERROR_MESSAGES } from '../src/lib/spec/errors';
import type { AppDeps } from './deps';
import { AppError, envelope, errorResponder } from './http/errors';
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

export function createApp(deps: AppDeps) {
  const { config, log } = deps;
  const app = new Hono();
  const site = staticSite({ root: config.siteDir });

  app.onError(errorResponder(log));
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
