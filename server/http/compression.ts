// gzip/deflate for text answers (pages, scripts, JSON) by Hono's compress(), skipped for small JSON answers and for
// clients that take no encoding.
import type { Context, MiddlewareHandler } from 'hono';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX, compress } from 'hono/compress';

/**
 * Hono's compress() default: smaller answers of stated length are sent as they are (gzip would gain a few bytes at
 * best).
 */
const THRESHOLD = 1024;
const ENCODINGS = /\b(gzip|deflate|\*)\b/i;
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i;
const VARIES = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;

/**
 * Whether compress() would consider the answer (and so send Vary: Accept-Encoding): its own conditions, in its order.
 */
function compressible(c: Context): boolean {
  const h = c.res.headers;
  const length = h.get('Content-Length');
  if (c.res.status === 206 || h.has('Content-Encoding') || h.has('Transfer-Encoding') || c.req.method === 'HEAD')
    return false;
  if (length && Number(length) < THRESHOLD) return false;
  const type = h.get('Content-Type');
  return (
    Boolean(type && COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type)) && !NO_TRANSFORM.test(h.get('Cache-Control') ?? '')
  );
}

/**
 * c.json() as Hono makes it, plus Content-Length. Without a stated length compress() cannot tell a 300-byte poll answer
 * from a large list, and gzips every one through a compression stream. One function shared by every request, called as
 * c.json(): a new closure per request measured 30–100 µs slower a request (bench/api-throughput.mjs).
 */
function sizedJson(this: Context, object: unknown, arg?: unknown, headers?: Record<string, string>): Response {
  const text = JSON.stringify(object) ?? 'null';
  return this.body(text, arg as never, {
    'Content-Type': 'application/json',
    ...headers,
    'Content-Length': String(Buffer.byteLength(text)),
  });
}

/**
 * Hono's compress() adds Vary with c.header(), which rebuilds a finished answer around a web stream of its body:
 * on every JSON answer, whoever asked. So a client that accepts no encoding it offers (API clients, scripts) skips
 * it: the answer keeps its plain body and gets the same Vary header set in place.
 */
export function compression(): MiddlewareHandler {
  const gzip = compress({ threshold: THRESHOLD });
  return async (c, next) => {
    c.json = sizedJson as typeof c.json;
    const accepted = c.req.header('accept-encoding');
    if (accepted && ENCODINGS.test(accepted)) return gzip(c, next);
    await next();
    if (!compressible(c)) return;
    const vary = c.res.headers.get('Vary');
    if (vary !== '*' && !(vary && VARIES.test(vary)))
      c.res.headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  };
}
