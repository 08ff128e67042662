// A server span per request (only added when tracing is on): route pattern, status, request id; a caller's traceparent
// is its parent, its tracestate carried on.
import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { currentRequestId } from '../log';
import { contextFromTraceHeaders } from './tracing';

export function traceRequests(tracer: Tracer): MiddlewareHandler {
  return (c, next) => {
    const method = c.req.method;
    const attributes = {
      [ATTR_HTTP_REQUEST_METHOD]: method,
      [ATTR_URL_PATH]: c.req.path,
      'http.request.id': currentRequestId() ?? '',
    };
    return tracer.startActiveSpan(
      method,
      { kind: SpanKind.SERVER, attributes },
      contextFromTraceHeaders({ traceparent: c.req.header('traceparent'), tracestate: c.req.header('tracestate') }),
      async (span) => {
        try {
          await next();
        } finally {
          const route = routePath(c);
          span.updateName(`${method} ${route}`);
          span.setAttribute(ATTR_HTTP_ROUTE, route);
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, c.res.status);
          if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        }
      },
    );
  };
}
