// Public surface of the metrics area: every metric, the HTTP and collector middleware, the /metrics handler and its own
// listener.
export * from './registry';
export { httpMetrics } from './http';
export { collectorRefusals, countStoredBatch } from './tracking';
export { metricsHandler, type MetricsRouteOptions } from './route';
export { refreshTaskGauges } from './task-gauges';
export { metricsApp } from './listener';
