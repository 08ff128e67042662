// The performance-monitoring collector's path and timeout (SPEC.md §7 "a performance-monitoring collector is also
// used", §9 "Monitoring timeout 60000 ms"). TRACKING_PATHS.monitor and TRACKING.monitorTimeoutMs are built from these
// plain values, all the lazily loaded web-vitals reporter bundles of the product rules, so they stay out of the page's
// tracking stub.

/**
 * Where web vitals and client error reports go (TRACKING_PATHS.monitor; the path is ours, SPEC.md does not show it).
 */
export const MONITOR_PATH = '/spider/api/v1/monitor/report';
/** SPEC.md §9 "Monitoring timeout 60000 ms" (TRACKING.monitorTimeoutMs). */
export const MONITOR_TIMEOUT_MS = 60_000;
