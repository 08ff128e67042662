// /metrics scraped after real traffic: requests by route pattern, tasks, queue, credits, engines, collector and process
// metrics move by the right amounts.
import { describe, expect, it } from 'vitest';
import { TRACKING_PATHS } from '../../src/lib/product-rules';
import { createLogger } from '../log';
import { batch, DEVICE_1, entry, KEY, useCollector } from '../routes/tracking.fixtures';
import { testEngine, testApps, type TestTaskApp } from '../test-support/task-apps';
import { metricsApp } from '.';
import { EngineUnavailableError } from '../engines';

const TOKEN = 'metrics-test-token-0123456789';
type Fetcher = { request(path: string, init?: RequestInit): Response | Promise<Response> };

async function scrape(app: Fetcher, token: string | null = TOKEN): Promise<string> {
  const res = await app.request('/metrics', token ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

/** The value of one sample whose labels include `labels` (0 when the series does not exist yet). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const m = /^([a-z_:][a-z0-9_:]*)(?:\{(.*)\})? (\S+)$/i.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/gi)].map((l) => [l[1], l[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}

const HTTP_COUNT = 'dreamapi_http_request_duration_seconds_count';
const delta = (before: string, after: string, name: string, labels: Record<string, string> = {}) =>
  sample(after, name, labels) - sample(before, name, labels);

/** Each series (a metric and labels its samples include) moved by its amount from one scrape to the next. */
function expectMoved(before: string, after: string, moves: Array<[string, Record<string, string>, number]>) {
  for (const [name, labels, by] of moves)
    expect(delta(before, after, name, labels), `${name} ${JSON.stringify(labels)}`).toBe(by);
}

async function speak(t: TestTaskApp, token: string): Promise<string> {
  const res = await t.app.request('/api-playground/speech/v1/tts', {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify({ text: 'Counted by the metrics', voiceId: 'en-us-female-1' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { taskId: string } }).data.taskId;
}

const openApp = testApps();

describe('/metrics on PORT with METRICS_TOKEN', () => {
  it('is not served without METRICS_TOKEN, refuses a wrong token, and serves the Prometheus text with the right one', async () => {
    const unset = await openApp();
    expect((await unset.app.request('/metrics')).status).toBe(404);
    await unset.close();
    const t = await openApp({ env: { METRICS_TOKEN: TOKEN } });
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-wrong-token-0' },
      { authorization: `Basic ${TOKEN}` },
    ] as Array<Record<string, string>>) {
      const res = await t.app.request('/metrics', { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
    }
    const text = await scrape(t.app);
    // Process metrics come with it.
    expect(sample(text, 'dreamapi_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('dreamapi_nodejs_eventloop_lag_seconds');
  });

  it('counts a provider out of quota, billing or capacity as an unavailable engine, apart from its plain errors', async () => {
    const outOfQuota = {
      ...testEngine({ name: 'spent' }),
      run: async () =>
        Promise.reject(
          new EngineUnavailableError(
            'spent is unavailable right now; try again later',
            'HTTP 401 quota_exceeded',
            60_000,
          ),
        ),
    };
    const t = await openApp({
      env: { METRICS_TOKEN: TOKEN, ENGINES: 'tts-common=spent|steady' },
      engines: [outOfQuota, testEngine({ name: 'steady' })],
    });
    const user = await t.createUser(1000);
    const before = await scrape(t.app);
    const id = await speak(t, user.token);
    await t.system.start();
    expect((await t.waitForTask(id)).status).toBe('succeeded');
    const after = await scrape(t.app);
    expectMoved(before, after, [
      ['dreamapi_engine_failures_total', { engine: 'spent', feature: 'tts-common', kind: 'unavailable' }, 1],
      ['dreamapi_engine_failures_total', { engine: 'spent', feature: 'tts-common', kind: 'error' }, 0],
    ]);
  });

  it('counts requests by route pattern, tasks by feature, engine and outcome, credits, queue wait, engine failures and fallbacks', async () => {
    // Every task's first engine fails, so each one falls back to the second.
    const t = await openApp({
      env: { METRICS_TOKEN: TOKEN, ENGINES: 'tts-common=flaky|steady' },
      engines: [testEngine({ name: 'flaky', fail: 'provider down' }), testEngine({ name: 'steady' })],
    });
    const user = await t.createUser(1000);
    const before = await scrape(t.app);

    const ids = [await speak(t, user.token), await speak(t, user.token), await speak(t, user.token)];
    const cancel = await t.app.request('/api-playground/video_tools/v1/cancel', {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: user.token },
      body: JSON.stringify({ taskId: ids[2] }),
    });
    expect(cancel.status).toBe(200);
    // A path with an id in it is counted under its pattern, never the id.
    for (let i = 0; i < 4; i++)
      expect((await t.app.request(`/media/no-such-file-${i}.wav`)).status).toBeGreaterThanOrEqual(400);
    await t.system.start();
    const done = [await t.waitForTask(ids[0]!), await t.waitForTask(ids[1]!), await t.waitForTask(ids[2]!)];
    expect(done.map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'canceled']);
    const after = await scrape(t.app);

    const tts = { feature: 'tts-common' };
    expectMoved(before, after, [
      [HTTP_COUNT, { method: 'POST', route: '/api-playground/speech/v1/tts', status: '200' }, 3],
      [HTTP_COUNT, { method: 'POST', route: '/api-playground/video_tools/v1/cancel', status: '200' }, 1],
      [HTTP_COUNT, { method: 'GET', route: '/media/:file' }, 4],
      ['dreamapi_tasks_submitted_total', { ...tts, engine: 'flaky' }, 3],
      ['dreamapi_tasks_finished_total', { ...tts, engine: 'steady', outcome: 'succeeded' }, 2],
      ['dreamapi_tasks_finished_total', { ...tts, engine: 'flaky', outcome: 'canceled' }, 1],
      ['dreamapi_task_queue_wait_seconds_count', tts, 2],
      ['dreamapi_task_run_duration_seconds_count', { ...tts, engine: 'steady', outcome: 'succeeded' }, 2],
      ['dreamapi_engine_failures_total', { ...tts, engine: 'flaky', kind: 'error' }, 2],
      ['dreamapi_engine_fallbacks_total', { ...tts, from: 'flaky', to: 'steady' }, 2],
      ['dreamapi_engine_call_duration_seconds_count', { ...tts, engine: 'steady', outcome: 'ok' }, 2],
    ]);
    expect(after).not.toContain('no-such-file');

    // Credits: the counters agree with the ledger, movement by movement.
    const { ledger } = await t.creditState(user.id);
    const sum = (reason: string, sign: 1 | -1) =>
      ledger
        .filter((r) => r.reason === reason && Math.sign(r.delta) === sign)
        .reduce((n, r) => n + Math.abs(r.delta), 0);
    const held = done.reduce((n, d) => n + d.credits_held, 0);
    const charged = done.reduce((n, d) => n + (d.status === 'succeeded' ? (d.credits_charged ?? 0) : 0), 0);
    expect(held).toBeGreaterThan(0);
    expect(sum('task-hold', -1)).toBe(held);
    expect(delta(before, after, 'dreamapi_credits_total', { movement: 'held' })).toBe(held);
    expect(delta(before, after, 'dreamapi_credits_total', { movement: 'charged' })).toBe(charged);
    expect(delta(before, after, 'dreamapi_credits_total', { movement: 'refunded' })).toBe(sum('task-refund', 1));
    expect(delta(before, after, 'dreamapi_credits_total', { movement: 'released' })).toBe(sum('task-settle', 1));
    expect(sample(after, 'dreamapi_credits_held')).toBe(0);
  });

  it('reads queue depth, the oldest wait and the credits held from the database at each scrape', async () => {
    const t = await openApp({ env: { METRICS_TOKEN: TOKEN } });
    const user = await t.createUser(1000);
    const ids = [await speak(t, user.token), await speak(t, user.token)];
    const rows = await t.database.db.selectFrom('tasks').select('credits_held').where('id', 'in', ids).execute();
    const text = await scrape(t.app);
    expect(sample(text, 'dreamapi_tasks_active', { feature: 'tts-common', status: 'queued' })).toBe(2);
    expect(sample(text, 'dreamapi_credits_held')).toBe(rows.reduce((n, r) => n + r.credits_held, 0));
    expect(sample(text, 'dreamapi_tasks_oldest_queued_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toMatch(/^dreamapi_tasks_oldest_queued_age_seconds \d/m);
  });
});

describe('collector counters on METRICS_PORT', () => {
  const c = useCollector();

  it('count accepted batches, stored and duplicate events, and each refused call by its reason', async () => {
    const port = metricsApp({ db: c.t.database.db, log: createLogger('silent'), token: null });
    const before = await scrape(port, null);
    const s = await c.session();
    const sealed = batch(s, [entry(), entry(), entry()]);
    expect((await c.post(TRACKING_PATHS.trackInfo, sealed)).code).toBe(0);
    expect((await c.post(TRACKING_PATHS.trackInfo, sealed)).data).toEqual({ stored: 0, duplicates: 3 });
    const tampered = await c.post(TRACKING_PATHS.trackInfo, batch(s, [entry()], { batchCount: 2 }, false));
    expect(tampered.status).toBe(403);
    const stale = await c.post(TRACKING_PATHS.trackConfig, { token: 'not-a-token', sign: 'x' });
    expect(stale.status).toBe(401);
    const unknownKey = await c.post(TRACKING_PATHS.accessToken, { ...DEVICE_1, app_key: `${KEY}-unknown` });
    expect(unknownKey.status).toBe(403);
    const after = await scrape(port, null);

    expectMoved(before, after, [
      ['dreamapi_tracking_batches_total', { result: 'accepted' }, 2],
      ['dreamapi_tracking_batches_total', { result: 'refused' }, 1],
      ['dreamapi_tracking_events_total', { result: 'accepted' }, 3],
      ['dreamapi_tracking_events_total', { result: 'duplicate' }, 3],
      ['dreamapi_tracking_refusals_total', { call: 'trackInfo', reason: 'signMismatch' }, 1],
      ['dreamapi_tracking_refusals_total', { call: 'trackConfig', reason: 'tokenFailure' }, 1],
      ['dreamapi_tracking_refusals_total', { call: 'accessToken', reason: 'appKeyError' }, 1],
    ]);
  });
});
