// A settled task records what it charged and what its result cost at the provider (migration 014), kept when the task
// is deleted, and counted for Prometheus.
import { describe, expect, it } from 'vitest';
import type { Engine, ProviderCost } from '../engines';
import { registry } from '../metrics';
import { runAdmin } from '../admin/commands';
import { testApps, testEngine, type TestTaskApp } from '../test-support/task-apps';
import { APP_DATABASES } from '../test-support/app-databases';

const targets = APP_DATABASES;
const openApp = testApps();
let t: TestTaskApp;

/** The test engine's speech, with the costs a provider adapter would attach. */
function billingEngine(costs: unknown[]): Engine {
  const base = testEngine({ name: 'billing' });
  return {
    ...base,
    run: async (f, i, ctx) => ({ ...(await base.run(f, i, ctx)), providerCosts: costs as ProviderCost[] }),
  };
}

async function speak(app: TestTaskApp['app'], token: string): Promise<string> {
  const res = await app.request('/api-playground/speech/v1/tts', {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify({ text: 'Hello there', voiceId: 'en-us-female-1' }),
  });
  return ((await res.json()) as { data: { taskId: string } }).data.taskId;
}

const counted = async (metric: string, labels: Record<string, string>) => {
  const m = await registry.getSingleMetric(metric)?.get();
  return m?.values.find((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val))?.value ?? 0;
};

describe.each(targets)('provider costs of a settled task on $label', ({ postgres }) => {
  it('are stored with the engine, feature and credits charged, survive the task being deleted, are counted and reported', async () => {
    const fal: ProviderCost = { provider: 'fal', amount: 2, unit: 'fal-billing-units', usd: 0.4, estimated: false };
    const chars: ProviderCost = {
      provider: 'elevenlabs',
      amount: 11,
      unit: 'characters',
      usd: 0.0011,
      estimated: true,
    };
    t = await openApp({
      postgres,
      engines: [billingEngine([fal, chars])],
      env: { ENGINES: 'tts-common=billing' },
      start: 'system',
    });
    const user = await t.createUser(100);
    const usdBefore = await counted('dreamapi_provider_cost_usd_total', {
      engine: 'billing',
      feature: 'tts-common',
      provider: 'fal',
    });
    const taskId = await speak(t.app, user.token);
    const task = await t.waitForTask(taskId);
    expect(task.status).toBe('succeeded');

    const db = t.database.db;
    expect(await db.selectFrom('task_costs').selectAll().execute()).toEqual([
      {
        task_id: taskId,
        engine: 'billing',
        feature: 'tts-common',
        credits_charged: task.credits_charged,
        settled_at: task.finished_at,
      },
    ]);
    const parts = await db
      .selectFrom('task_provider_costs')
      .select(['provider', 'amount', 'unit', 'usd', 'estimated'])
      .orderBy('id')
      .execute();
    expect(parts).toEqual([
      { provider: 'fal', amount: 2, unit: 'fal-billing-units', usd: 0.4, estimated: 0 },
      { provider: 'elevenlabs', amount: 11, unit: 'characters', usd: 0.0011, estimated: 1 },
    ]);
    expect(
      (await counted('dreamapi_provider_cost_usd_total', {
        engine: 'billing',
        feature: 'tts-common',
        provider: 'fal',
      })) - usdBefore,
    ).toBeCloseTo(0.4);

    const res = await t.app.request('/api-playground/video_tools/v1/delete', {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: user.token },
      body: JSON.stringify({ taskId }),
    });
    expect(res.status).toBe(200);
    expect(await db.selectFrom('tasks').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('task_costs').select('task_id').execute()).toEqual([{ task_id: taskId }]);

    // The report reads the same figures back as numbers on either database.
    const out: string[] = [];
    await runAdmin(db, ['costs'], (line) => out.push(line));
    expect(out[1]!.split('\t').slice(0, 6)).toEqual([
      'billing',
      '1',
      String(task.credits_charged),
      expect.any(String),
      '$0.4011',
      '11 characters, 2 fal-billing-units',
    ]);
  });
});

describe('provider costs of a settled task', () => {
  it('a cost an engine got wrong is left out; the task still settles', async () => {
    t = await openApp({
      engines: [billingEngine([{ provider: 'fal', amount: -1, unit: 'usd', usd: null, estimated: true }])],
      env: { ENGINES: 'tts-common=billing' },
      start: 'system',
    });
    const user = await t.createUser(100);
    const task = await t.waitForTask(await speak(t.app, user.token));
    expect(task.status).toBe('succeeded');
    expect(await t.database.db.selectFrom('task_provider_costs').selectAll().execute()).toEqual([]);
    expect(await t.database.db.selectFrom('task_costs').select('engine').execute()).toEqual([{ engine: 'billing' }]);
  });

  it('a failed task records nothing', async () => {
    t = await openApp({
      engines: [testEngine({ name: 'broken', fail: 'upstream 502' })],
      env: { ENGINES: 'tts-common=broken' },
      start: 'system',
    });
    const user = await t.createUser(100);
    expect((await t.waitForTask(await speak(t.app, user.token))).status).toBe('failed');
    expect(await t.database.db.selectFrom('task_costs').selectAll().execute()).toEqual([]);
  });
});
