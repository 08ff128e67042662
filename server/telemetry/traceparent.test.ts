// W3C trace context through OpenTelemetry's propagator: which traceparents name a parent, the one a span writes,
// tracestate carried on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../log';
import { traceRequests } from './http-spans';
import { activeTracer, contextFromTraceparent, startTracing, stopTracing, traceparentOf } from './tracing';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';
const parentOf = (traceparent: string | null) => trace.getSpanContext(contextFromTraceparent(traceparent)) ?? null;

describe('W3C trace context', () => {
  // An OTLP receiver that accepts every export, so spans ended here leave quietly.
  let receiver: Server;
  beforeAll(async () => {
    receiver = createServer((req, res) =>
      req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}')),
    );
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    await startTracing(
      { tracesUrl: `http://127.0.0.1:${port}/v1/traces`, serviceName: 'traceparent-test' },
      createLogger('silent'),
    );
  });
  afterAll(async () => {
    await stopTracing();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('a valid traceparent names a remote parent with its sampled flag', () => {
    expect(parentOf(`00-${TRACE}-${SPAN}-01`)).toEqual({ traceId: TRACE, spanId: SPAN, traceFlags: 1, isRemote: true });
    expect(parentOf(`00-${TRACE}-${SPAN}-00`)).toMatchObject({ traceId: TRACE, spanId: SPAN, traceFlags: 0 });
  });

  it.each([
    ['none', null],
    ['garbage', 'not a traceparent'],
    ['upper-case hex', `00-${TRACE.toUpperCase()}-${SPAN}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['an all-zero span id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['the forbidden version ff', `ff-${TRACE}-${SPAN}-01`],
    ['version 00 with more fields', `00-${TRACE}-${SPAN}-01-extra`],
    ['a short trace id', `00-${TRACE.slice(1)}-${SPAN}-01`],
  ])('names no parent for %s', (_, value) => {
    expect(parentOf(value)).toBeNull();
  });

  it('continues a traceparent of a later version, reading the fields version 00 defines (W3C Trace Context, versioning)', () => {
    expect(parentOf(`cc-${TRACE}-${SPAN}-01-what-a-later-version-adds`)).toMatchObject({
      traceId: TRACE,
      spanId: SPAN,
      traceFlags: 1,
    });
  });

  it('a span writes the traceparent a task stores, and reading it back names that span', () => {
    const span = activeTracer()!.startSpan('submit');
    const written = traceparentOf(span);
    span.end();
    const { traceId, spanId } = span.spanContext();
    expect(written).toBe(`00-${traceId}-${spanId}-01`);
    expect(parentOf(written)).toMatchObject({ traceId, spanId, isRemote: true });
    expect(traceparentOf(undefined)).toBeNull();
  });

  it("a request's span continues the caller's trace and carries its tracestate on", async () => {
    const app = new Hono();
    app.use(traceRequests(activeTracer()!));
    app.get('/here', (c) => {
      const sc = trace.getActiveSpan()!.spanContext();
      return c.json({ traceId: sc.traceId, traceState: sc.traceState?.serialize() ?? null });
    });
    const res = await app.request('/here', {
      headers: { traceparent: `00-${TRACE}-${SPAN}-01`, tracestate: 'vendor=abc,other=1' },
    });
    expect(await res.json()).toEqual({ traceId: TRACE, traceState: 'vendor=abc,other=1' });
  });
});
