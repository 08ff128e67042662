// Browser-only, loaded on a sampled share of page loads: sends web vitals to the monitoring endpoint (SPEC.md §9).
import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import { TRACKING } from '../spec/constants';
import { TRACKING_PATHS } from '../spec/tracking';

export function reportVitals(domain: string, appKey: string, deviceId: string): void {
  const url = `${domain.replace(/\/$/, '')}${TRACKING_PATHS.monitor}`;
  const send = (metric: Metric) => {
    const body = { appKey, deviceId, kind: 'perf', name: metric.name, value: metric.value, rating: metric.rating, page: location.pathname };
    // text/plain keeps the request CORS-simple; keepalive lets late metrics (CLS, INP at hide) still arrive.
    fetch(url, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'text/plain' },
      keepalive: true,
      credentials: 'omit',
      signal: AbortSignal.timeout(TRACKING.monitorTimeoutMs),
    }).catch(() => {});
  };
  onCLS(send);
  onFCP(send);
  onINP(send);
  onLCP(send);
  onTTFB(send);
}
