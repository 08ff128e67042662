// OpenTelemetry tracing: with an OTLP endpoint configured, the SDK is loaded and spans are exported; otherwise nothing
// is loaded.
import { context, propagation, ROOT_CONTEXT, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { Logger } from '../log';

export interface TracingSettings {
  /** OTLP/HTTP traces URL (…/v1/traces). */
  tracesUrl: string;
  serviceName: string;
}

let tracer: Tracer | null = null;
let shutdown: (() => Promise<void>) | null = null;

/** The tracer spans are made with, or null when tracing is off (callers then skip span work entirely). */
export function activeTracer(): Tracer | null {
  return tracer;
}

/**
 * Loads the tracing SDK and the OTLP/HTTP exporter and makes them global (with an AsyncLocalStorage context manager, so
 * a span started in a handler is the parent of what the handler awaits). Called once by main.ts before the app is
 * built.
 */
export async function startTracing(settings: TracingSettings | null, log: Logger): Promise<void> {
  if (!settings || tracer) return;
  const [sdk, exporter, hooks, resources, conventions, core] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
    import('@opentelemetry/core'),
  ]);
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({ [conventions.ATTR_SERVICE_NAME]: settings.serviceName }),
    spanProcessors: [
      new sdk.BatchSpanProcessor({ exporter: new exporter.OTLPTraceExporter({ url: settings.tracesUrl }) }),
    ],
  });
  context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  // W3C Trace Context (traceparent, tracestate) read and written by OpenTelemetry's own propagator, not a regex of
  // ours.
  propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  tracer = provider.getTracer(settings.serviceName);
  shutdown = () => provider.shutdown();
  log.info('tracing on', { tracesUrl: settings.tracesUrl, serviceName: settings.serviceName });
}

/** Exports the spans still buffered and stops the SDK (part of the drain); harmless when tracing is off. */
export async function stopTracing(): Promise<void> {
  const stop = shutdown;
  shutdown = null;
  tracer = null;
  propagation.disable();
  await stop?.();
}

/** W3C trace headers as a plain record (lower-case names), the carrier the propagator reads and writes. */
type TraceHeaders = Record<string, string | undefined>;

/**
 * A span's W3C traceparent, stored with a task so its run joins the trace of the request that submitted it; null for
 * no span, an invalid one, or while tracing is off (the API's propagator then writes nothing).
 */
export function traceparentOf(span: Span | undefined): string | null {
  if (!span) return null;
  const carrier: TraceHeaders = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier);
  return carrier.traceparent ?? null;
}

/**
 * The context W3C trace headers (a caller's traceparent and tracestate, or a task's stored traceparent) name as
 * parent; the active one when they name none, are invalid, or tracing is off.
 */
export function contextFromTraceHeaders(headers: TraceHeaders): Context {
  return propagation.extract(context.active(), headers);
}

/** contextFromTraceHeaders for a traceparent alone (a task's stored one). */
export function contextFromTraceparent(value: string | null | undefined): Context {
  return contextFromTraceHeaders({ traceparent: value ?? undefined });
}
