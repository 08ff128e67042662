// Web-vitals reports: each metric is posted once with the worker's device id, its answer is read to the end, and
// keepalive is used only while the page hides.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Metric } from 'web-vitals';
import { MONITOR_PATH } from '../product-rules';

const observers: Array<(m: Metric) => void> = [];
vi.mock('web-vitals', () => {
  const on = (callback: (m: Metric) => void) => void observers.push(callback);
  return { onCLS: on, onFCP: on, onINP: on, onLCP: on, onTTFB: on };
});

const { reportVitals } = await import('./vitals');

const metric = (name: Metric['name']) => ({ name, value: 1.5, rating: 'good' }) as Metric;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('reportVitals', () => {
  const answers: Response[] = [];
  const calls: Array<{ url: string; init: RequestInit }> = [];
  let visibility: 'visible' | 'hidden';
  beforeEach(() => {
    observers.length = 0;
    answers.length = 0;
    calls.length = 0;
    visibility = 'visible';
    vi.stubGlobal('document', {
      get visibilityState() {
        return visibility;
      },
    });
    vi.stubGlobal('location', { pathname: '/docs' });
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      const answer = new Response('{"code":0,"msg":"ok","data":null}', {
        headers: { 'content-type': 'application/json' },
      });
      answers.push(answer);
      return answer;
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('posts each metric with the device id and reads every answer to its end', async () => {
    reportVitals('http://collector.test/', 'app-key', { status: async () => ({ deviceId: 'dev-1' }) as never });
    expect(observers).toHaveLength(5);
    observers[0]!(metric('FCP'));
    observers[1]!(metric('TTFB'));
    await settle();
    expect(calls.map((c) => c.url)).toEqual([
      `http://collector.test${MONITOR_PATH}`,
      `http://collector.test${MONITOR_PATH}`,
    ]);
    expect(JSON.parse(String(calls[0]!.init.body))).toMatchObject({
      appKey: 'app-key',
      deviceId: 'dev-1',
      name: 'FCP',
      page: '/docs',
    });
    // An unread answer keeps the request open in Chromium, so the page never settles.
    expect(answers.map((a) => a.bodyUsed)).toEqual([true, true]);
  });

  it('uses keepalive only for a metric sent while the page is hidden', async () => {
    reportVitals('http://collector.test', 'app-key', { status: async () => ({ deviceId: 'dev-1' }) as never });
    observers[0]!(metric('FCP'));
    await settle();
    visibility = 'hidden';
    observers[2]!(metric('CLS'));
    await settle();
    expect(calls.map((c) => c.init.keepalive)).toEqual([false, true]);
  });
});
