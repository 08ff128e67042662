// Security headers on every answer, and the Content-Security-Policy for API answers and site pages.
import type { MiddlewareHandler } from 'hono';
import type { ProxyTrust } from './client-ip';

/** API answers are data, never documents: nothing may load from them or frame them. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The policy for a built page. Astro writes the page's script and style hashes into a CSP <meta>
 * (`security.csp`), so this header repeats them and adds what a <meta> cannot carry (frame-ancestors).
 */
export function pagePolicy(metaPolicy: string | undefined, extraConnect: readonly string[]): string {
  const fromMeta = new Map<string, string>();
  for (const part of (metaPolicy ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name && values.length > 0) fromMeta.set(name, values.join(' '));
  }
  const directives = [
    "default-src 'self'",
    `script-src ${fromMeta.get('script-src') ?? "'self'"}`,
    `style-src ${fromMeta.get('style-src') ?? "'self'"}`,
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self'",
    `connect-src ${["'self'", ...extraConnect].join(' ')}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  return directives.join('; ');
}

export function securityHeaders(options: { trustProxy: ProxyTrust }): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    h.set('X-Content-Type-Options', 'nosniff');
    h.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    h.set('X-Frame-Options', 'DENY');
    h.set('Cross-Origin-Opener-Policy', 'same-origin');
    h.set('Permissions-Policy', 'camera=(), geolocation=(), microphone=(self), payment=(self)');
    if (!h.has('Content-Security-Policy')) h.set('Content-Security-Policy', API_CSP);
    const forwardedProto = options.trustProxy ? c.req.header('x-forwarded-proto') : undefined;
    // The request URL is absolute and its scheme lower-case, so a prefix check tells TLS without parsing it.
    const secure = c.req.url.startsWith('https:') || forwardedProto === 'https';
    // HSTS only means something over TLS; sent on plain HTTP it would be ignored or pin a dev host.
    if (secure) h.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  };
}
