// Browser-only, loaded on a sampled share of page loads: sends web vitals to the monitoring endpoint (SPEC.md §9).
import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import { MONITOR_PATH, MONITOR_TIMEOUT_MS } from '../product-rules';
import type { Tracker } from './tracker';

/** Starts the web-vitals observers; each metric is sent once known, with the device id the tracking worker keeps. */
export function reportVitals(domain: string, appKey: string, tracker: Pick<Tracker, 'status'>): void {
  const url = `${domain.replace(/\/$/, '')}${MONITOR_PATH}`;
  const device = tracker.status().then(
    (status) => status?.deviceId ?? '',
    () => '',
  );
  const post = (deviceId: string, metric: Metric) => {
    const body = {
      appKey,
      deviceId,
      kind: 'perf',
      name: metric.name,
      value: metric.value,
      rating: metric.rating,
      page: location.pathname,
    };
    // text/plain keeps the request CORS-simple. keepalive only for metrics sent as the page hides (CLS, INP):
    // it shares a small in-flight quota with the tracker's beacons, which need it more.
    fetch(url, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'text/plain' },
      keepalive: document.visibilityState === 'hidden',
      credentials: 'omit',
      signal: AbortSignal.timeout(MONITOR_TIMEOUT_MS),
    })
      // Read the answer to its end: Chromium keeps a fetch whose body nobody reads open, so the page never
      // settles (network idle) for tools that wait for it.
      .then((response) => response.arrayBuffer())
      .catch(() => {});
  };
  // The id resolves once the worker has started (after idle, like this module); later metrics find it resolved.
  const send = (metric: Metric) => void device.then((deviceId) => post(deviceId, metric));
  onCLS(send);
  onFCP(send);
  onINP(send);
  onLCP(send);
  onTTFB(send);
}
