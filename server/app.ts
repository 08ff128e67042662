// Builds the API host's Hono app from its dependencies; never listens (tests call app.request()).
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { ERROR_CODES, ERROR_MESSAGES } from '../src/lib/spec/errors';
import type { AppDeps } from './deps';
import { AppError, envelope, errorResponder } from './http/errors';
import { securityHeaders } from './http/security';
import { healthRoutes } from './routes/health';
import { staticSite } from './site/static';

export function createApp(deps: AppDeps) {
  const { config, log } = deps;
  const app = new Hono();
  const site = staticSite({ root: config.siteDir });

  app.onError(errorResponder(log));
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
  app.use(
    bodyLimit({
      maxSize: config.bodyLimitBytes,
      onError: () => {
        throw new AppError(413, ERROR_CODES.payloadTooLarge, `${ERROR_MESSAGES.payloadTooLarge}: the limit is ${config.bodyLimitBytes} bytes`);
      },
    }),
  );

  app.route('/', healthRoutes(deps));

  app.use(site.serve);
  app.notFound(async (c) => {
    const wantsPage = c.req.method === 'GET' && (c.req.header('accept') ?? '').includes('text/html');
    const page = wantsPage ? await site.notFoundPage(c) : undefined;
    return page ?? c.json(envelope(ERROR_CODES.notFound, ERROR_MESSAGES.notFound), 404);
  });
  return app;
}

export type App = ReturnType<typeof createApp>;
