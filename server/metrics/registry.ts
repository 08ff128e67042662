// The process's Prometheus metrics (prom-client): one registry, every metric defined once here, names under
// METRICS.prefix.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { METRICS } from '../../src/lib/product-rules';

/** Metrics are per process, as Prometheus scrapes them; tests read deltas, so apps built side by side may share it. */
export const registry = new Registry();

const name = (suffix: string) => `${METRICS.prefix}${suffix}`;
const registers = [registry];

/** One observe per answer: its count is the request counter, its sum the time spent. */
export const httpRequestDuration = new Histogram({
  name: name('http_request_duration_seconds'),
  help: 'HTTP requests by method, route pattern and status, with their latency',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [...METRICS.httpBucketsS],
  registers,
});

/**
 * Live status streams (server/routes/task-events.ts), timed from open to close: the HTTP histogram sees only the time
 * to open.
 */
export const statusStreamDuration = new Histogram({
  name: name('status_stream_duration_seconds'),
  help: 'Live status streams from open to close, by stream (public or playground) and how each ended (finished, left, drain, error)',
  labelNames: ['stream', 'end'] as const,
  buckets: [...METRICS.streamBucketsS],
  registers,
});
export const statusStreamEvents = new Counter({
  name: name('status_stream_events_total'),
  help: 'Task events sent on live status streams, by stream (public or playground)',
  labelNames: ['stream'] as const,
  registers,
});

export const tasksSubmitted = new Counter({
  name: name('tasks_submitted_total'),
  help: 'Tasks stored with their credit hold, by feature and first engine',
  labelNames: ['feature', 'engine'] as const,
  registers,
});
export const tasksFinished = new Counter({
  name: name('tasks_finished_total'),
  help: 'Tasks settled, by feature, the engine that ran it and outcome (succeeded, failed, canceled)',
  labelNames: ['feature', 'engine', 'outcome'] as const,
  registers,
});
export const tasksHandedBack = new Counter({
  name: name('tasks_handed_back_total'),
  help: 'Running tasks put back in the queue by a draining process',
  registers,
});
export const taskQueueWait = new Histogram({
  name: name('task_queue_wait_seconds'),
  help: 'From submit to a worker starting the task (first attempts only), by feature',
  labelNames: ['feature'] as const,
  buckets: [...METRICS.queueWaitBucketsS],
  registers,
});
export const taskRunDuration = new Histogram({
  name: name('task_run_duration_seconds'),
  help: 'From start to settle of a task that ran, by feature, engine and outcome',
  labelNames: ['feature', 'engine', 'outcome'] as const,
  buckets: [...METRICS.runBucketsS],
  registers,
});
/** Read from the database at each scrape (every instance sees the same queue: aggregate with max, not sum). */
export const tasksActive = new Gauge({
  name: name('tasks_active'),
  help: 'Tasks queued or running now, by feature and status',
  labelNames: ['feature', 'status'] as const,
  registers,
});
export const oldestQueuedAge = new Gauge({
  name: name('tasks_oldest_queued_age_seconds'),
  help: 'Age of the oldest queued task (0 when none waits)',
  registers,
});
export const creditsHeldNow = new Gauge({
  name: name('credits_held'),
  help: 'Credits held by queued and running tasks now',
  registers,
});

export const creditMovements = new Counter({
  name: name('credits_total'),
  help: 'Credits moved: held at submit, charged at settle, refunded on failure or cancel, released (hold above the real price); granted and taken: changes no task caused (grants, invitations, purchases, claw-backs)',
  labelNames: ['movement'] as const,
  registers,
});

export const trackingBatches = new Counter({
  name: name('tracking_batches_total'),
  help: 'Tracking batches (track_info) accepted or refused',
  labelNames: ['result'] as const,
  registers,
});
export const trackingEvents = new Counter({
  name: name('tracking_events_total'),
  help: 'Events of accepted batches: stored, or duplicates of events already held',
  labelNames: ['result'] as const,
  registers,
});
export const trackingRefusals = new Counter({
  name: name('tracking_refusals_total'),
  help: 'Collector calls refused, by call and reason (the SPEC.md §8 tracking code name)',
  labelNames: ['call', 'reason'] as const,
  registers,
});

export const engineCallDuration = new Histogram({
  name: name('engine_call_duration_seconds'),
  help: 'One engine attempt at a task, by engine, feature and outcome (ok or the failure kind)',
  labelNames: ['engine', 'feature', 'outcome'] as const,
  buckets: [...METRICS.runBucketsS],
  registers,
});
export const engineFailures = new Counter({
  name: name('engine_failures_total'),
  help: 'Engine attempts that failed, by engine, feature and kind (input, unsupported, timeout, canceled, error)',
  labelNames: ['engine', 'feature', 'kind'] as const,
  registers,
});
export const engineFallbacks = new Counter({
  name: name('engine_fallbacks_total'),
  help: 'A task moved on to the next engine of its feature after one failed',
  labelNames: ['feature', 'from', 'to'] as const,
  registers,
});

/**
 * Margin per engine: credits charged next to what the results cost at the providers (server/tasks/provider-costs.ts).
 */
export const engineCreditsCharged = new Counter({
  name: name('engine_credits_charged_total'),
  help: 'Credits charged for succeeded tasks, by the engine that made the result and feature',
  labelNames: ['engine', 'feature'] as const,
  registers,
});
export const providerCostUsd = new Counter({
  name: name('provider_cost_usd_total'),
  help: 'What succeeded tasks cost at their providers in US dollars (reported units at published prices, or estimated), by engine, feature and provider',
  labelNames: ['engine', 'feature', 'provider'] as const,
  registers,
});
export const providerCostUnits = new Counter({
  name: name('provider_cost_units_total'),
  help: "What succeeded tasks cost at their providers in the provider's own unit (fal billing units, billed characters, DreamAPI credits…)",
  labelNames: ['engine', 'feature', 'provider', 'unit'] as const,
  registers,
});

/** Provider webhooks refused before they could wake anything (forged, replayed, or fal's keys out of reach). */
export const providerHooksUnverified = new Counter({
  name: name('provider_webhooks_unverified_total'),
  help: 'Provider webhooks ignored because their signature did not verify, by engine and reason',
  labelNames: ['engine', 'reason'] as const,
  registers,
});

let processMetrics = false;

/** CPU, memory, event-loop lag, handles and GC of this process; started once, when metrics are served. */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry, prefix: METRICS.prefix });
}
