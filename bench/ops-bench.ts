// What the per-request operability middleware costs (metrics observe, request id, a span when tracing is on),
// in-process, next to none.
import { trace } from '@opentelemetry/api';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import { Hono, type MiddlewareHandler } from 'hono';
import { httpMetrics } from '../server/metrics';
import { traceRequests } from '../server/telemetry/http-spans';
import { requestId } from '../server/telemetry/request-id';

const REQUESTS = 100_000;
const ROUNDS = 3;

/** A route with an id in its path, answering a small JSON body: the shape of a task poll without its database read. */
function app(middleware: MiddlewareHandler[]) {
  const a = new Hono();
  for (const m of middleware) a.use(m);
  a.get('/task/:id', (c) => c.json({ code: 0, msg: 'ok', data: { id: c.req.param('id') } }));
  return a;
}

/** Nanoseconds per request over REQUESTS sequential requests. */
async function nsPerRequest(a: Hono): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const res = await a.fetch(new Request(`http://bench/task/t${i & 1023}`));
    await res.arrayBuffer();
  }
  return ((performance.now() - start) * 1e6) / REQUESTS;
}

/** Takes the batches and drops them: the cost of making and batching spans, without a network. */
const dropping: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => {},
};
const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: dropping })] });
trace.setGlobalTracerProvider(provider);
const variants: Array<[string, MiddlewareHandler[]]> = [
  ['none (baseline)', []],
  ['metrics + request id (always on)', [httpMetrics(), requestId()]],
  [
    'metrics + request id + span (tracing on)',
    [httpMetrics(), requestId(), traceRequests(provider.getTracer('bench'))],
  ],
];
// Rounds interleave the variants (one warm-up round first), and each keeps its best: a busy machine slows rounds, not
// variants.
const apps = variants.map(([, middleware]) => app(middleware));
const best = variants.map(() => Infinity);
for (let round = 0; round <= ROUNDS; round++) {
  for (const [i, a] of apps.entries()) {
    const ns = await nsPerRequest(a);
    if (round > 0) best[i] = Math.min(best[i]!, ns);
  }
}
const rows = variants.map(([variant], i) => ({
  variant,
  'µs per request': +(best[i]! / 1000).toFixed(2),
  'added µs': +((best[i]! - best[0]!) / 1000).toFixed(2),
  'requests/s (one core)': Math.round(1e9 / best[i]!),
}));
await provider.shutdown();
console.log(JSON.stringify(rows));
