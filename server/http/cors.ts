// CORS for the site's origins: Hono's cors() answers preflights; on other requests its headers are added after the
// route answered.
import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

export interface CorsOptions {
  /** The origins allowed to call with credentials headers (SITE_ORIGINS). */
  origins: readonly string[];
  allowHeaders: string[];
  allowMethods: string[];
  exposeHeaders: string[];
  maxAge: number;
}

/**
 * Adds Vary: Origin to the answer and answers its headers. An answer whose headers cannot change (a
 * Response.redirect()) is copied once first, as Hono's c.header() would have.
 */
function varyByOrigin(c: Context): Headers {
  try {
    c.res.headers.append('Vary', 'Origin');
  } catch {
    c.res = new Response(c.res.body, c.res);
    c.res.headers.append('Vary', 'Origin');
  }
  return c.res.headers;
}

/**
 * The same headers as Hono's cors() with these options. Hono's sets them on the answer before the route runs, which
 * makes an empty placeholder answer that the route's own answer is then copied into, body stream and all, on every
 * request; here they go onto the route's answer once it exists. Preflights (OPTIONS) are Hono's cors() unchanged.
 */
export function corsHeaders(o: CorsOptions): MiddlewareHandler {
  const allowed = (origin: string) => (o.origins.includes(origin) ? origin : null);
  const preflight = cors({
    origin: allowed,
    allowHeaders: o.allowHeaders,
    allowMethods: o.allowMethods,
    exposeHeaders: o.exposeHeaders,
    maxAge: o.maxAge,
  });
  const expose = o.exposeHeaders.join(',');
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    await next();
    const headers = varyByOrigin(c);
    const origin = allowed(c.req.header('origin') ?? '');
    if (origin) headers.set('Access-Control-Allow-Origin', origin);
    if (expose) headers.set('Access-Control-Expose-Headers', expose);
  };
}
