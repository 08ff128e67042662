// CSP for built scripts: a dedicated worker runs under the policy of its own script response, not the page's.
import type { MiddlewareHandler } from 'hono';

/**
 * API answers get "default-src 'none'" (server/http/security.ts), which would forbid the tracking worker's fetches
 * to the collector. Scripts get just what a worker needs: its own imports and requests to this origin.
 */
export function workerScriptPolicy(extraConnect: readonly string[] = []): MiddlewareHandler {
  const policy = `default-src 'none'; script-src 'self'; connect-src ${["'self'", ...extraConnect].join(' ')}`;
  return async (c, next) => {
    await next();
    if ((c.res.headers.get('content-type') ?? '').includes('javascript'))
      c.res.headers.set('Content-Security-Policy', policy);
  };
}
