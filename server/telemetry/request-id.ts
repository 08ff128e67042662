// X-Request-Id: a sane incoming id is kept (a proxy's), else a fresh one; sent back on every answer and held for logs
// and errors.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { REQUEST_ID } from '../../src/lib/product-rules';
import { withRequestId } from '../log';

/** The id a request is known by: the client's when it is a plain token of up to 128 characters, else a new UUID. */
export function requestIdOf(given: string | undefined): string {
  return given !== undefined && REQUEST_ID.pattern.test(given) ? given : randomUUID();
}

/** Mounted first: everything after it (handlers, the error responder, log lines) runs inside the request's context. */
export function requestId(): MiddlewareHandler {
  return async (c, next) => {
    const id = requestIdOf(c.req.header(REQUEST_ID.header));
    await withRequestId(id, next);
    try {
      c.res.headers.set(REQUEST_ID.header, id);
    } catch {
      // An answer with immutable headers (a Response.redirect()) is copied once to carry the id.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set(REQUEST_ID.header, id);
    }
  };
}
