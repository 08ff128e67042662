// OpenTelemetry tracing: with an OTLP endpoint configured, the SDK is loaded and spans are exported; otherwise nothing is loaded.
import { context, trace, TraceFlags, isSpanContextValid, type Context, type Span, type Tracer } from '@opentelemetry/api';
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
 * a span started in a handler is the parent of what the handler awaits). Called once by main.ts before the app is built.
 */
export async function startTracing(settings: TracingSettings | null, log: Logger): Promise<void> {
  if (!settings || tracer) return;
  const [sdk, exporter, hooks, resources, conventions] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({ [conventions.ATTR_SERVICE_NAME]: settings.serviceName }),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new exporter.OTLPTraceExporter({ url: settings.tracesUrl }) })],
  });
  context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  tracer = provider.getTracer(settings.serviceName);
  shutdown = () => provider.shutdown();
  log.info('tracing on', { tracesUrl: settings.tracesUrl, serviceName: settings.serviceName });
}

/** Exports the spans still buffered and stops the SDK (part of the drain); harmless when tracing is off. */
export async function stopTracing(): Promise<void> {
  const stop = shutdown;
  shutdown = null;
  tracer = null;
  await stop?.();
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A span's W3C traceparent, stored with a task so its run joins the trace of the request that submitted it. */
export function traceparentOf(span: Span | undefined): string | null {
  const sc = span?.spanContext();
  if (!sc || !isSpanContextValid(sc)) return null;
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & TraceFlags.SAMPLED ? 1 : 0).toString(16).padStart(2, '0')}`;
}

/** The context a W3C traceparent (a caller's header, or a task's stored one) names as parent; the active one when it names none. */
export function contextFromTraceparent(value: string | null | undefined): Context {
  const m = value ? TRACEPARENT.exec(value) : null;
  if (!m) return context.active();
  const parent = { traceId: m[1]!, spanId: m[2]!, traceFlags: parseInt(m[3]!, 16) & TraceFlags.SAMPLED, isRemote: true };
  return isSpanContextValid(parent) ? trace.setSpanContext(context.active(), parent) : context.active();
}
