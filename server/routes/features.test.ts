// The public features answer, the 503 for features no engine serves, and what runs without an AI model cost
// (NO_MODEL_PRICE).
import { describe, expect, it } from 'vitest';
import {
  ENGINE_LABELS,
  ERROR_CODES,
  FEATURE_MESSAGES,
  FEATURES,
  quote,
  type Feature,
} from '../../src/lib/product-rules';
import type { FeatureState } from '../../src/lib/api/types';
import { offerSchema } from '../../src/lib/api-contract';
import { testEngine, testApps, type TestTaskApp, type TestUser } from '../test-support/task-apps';

const openApp = testApps();

/** NO_MODEL_PRICE left unset (an empty value is "unset"), so the production default applies. */
const DEFAULT_PRICE = { NO_MODEL_PRICE: '' };

async function features(app: TestTaskApp['app']) {
  const res = await app.request('/api-playground/task/v1/features');
  const body = (await res.json()) as { code: number; data: { list: FeatureState[] } };
  return { res, body, byFeature: (f: Feature) => body.data.list.find((s) => s.feature === f)! };
}

async function tts(app: TestTaskApp['app'], user: TestUser, text: string) {
  const res = await app.request('/api/async/do_tts_common', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.apiKey}` },
    body: JSON.stringify({ text, audioId: 'en-us-female-1' }),
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      code: number;
      message: string;
      msg: string;
      data: { taskId: string; credits: number } | null;
    },
  };
}

describe('GET /api-playground/task/v1/features', () => {
  it('answers guests: every feature, served or not, its engine and label, whether an AI model makes it, and a price note', async () => {
    const t = await openApp({ env: DEFAULT_PRICE });
    const { res, body, byFeature } = await features(t.app);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(body.code).toBe(0);
    expect(body.data.list.map((s) => s.feature)).toEqual([...FEATURES]);
    expect(byFeature('tts-common')).toMatchObject({
      feature: 'tts-common',
      available: true,
      engine: 'espeak',
      engineLabel: ENGINE_LABELS.espeak,
      usesModel: false,
      noModelPrice: 'free',
      priceNote: `Free here: ${ENGINE_LABELS.espeak}`,
    });
    expect(byFeature('text-to-video')).toMatchObject({
      available: true,
      engine: 'preview',
      usesModel: false,
      priceNote: 'Free here: preview engine (no AI model)',
    });
    for (const feature of ['tryon-clothes', 'voice-clone', 'video-translate-lip-sync', 'image-generation'] as const) {
      expect(byFeature(feature)).toMatchObject({
        available: false,
        engine: null,
        engineLabel: null,
        priceNote: FEATURE_MESSAGES.notAvailableHere,
      });
    }
  });

  it('gives the §9 price in the note when no-model runs are charged in full, and says an AI model is used when one is', async () => {
    const t = await openApp({
      engines: [testEngine({ name: 'model' })],
      env: { NO_MODEL_PRICE: 'full', ENGINES: 'tts-pro=model|espeak' },
    });
    const { byFeature } = await features(t.app);
    expect(byFeature('tts-common')).toMatchObject({
      usesModel: false,
      noModelPrice: 'full',
      priceNote: `${ENGINE_LABELS.espeak}: 1 credit per 250 characters`,
    });
    // The fallback has no model, the first engine has one: a run may use it, so it is priced in full.
    expect(byFeature('tts-pro')).toMatchObject({
      engine: 'model',
      usesModel: true,
      priceNote: 'model: 1 credit per 200 characters',
    });
    expect(byFeature('text-to-video').priceNote).toBe(`${ENGINE_LABELS.preview}: 20 to 180 credits a clip`);
  });
});

describe('payments and sign-in methods beside the features', () => {
  const OFF = {
    STRIPE_SECRET_KEY: '',
    STRIPE_WEBHOOK_SECRET: '',
    GOOGLE_CLIENT_ID: '',
    GOOGLE_CLIENT_SECRET: '',
    GITHUB_CLIENT_ID: '',
    GITHUB_CLIENT_SECRET: '',
  };

  it('say payments are off and only email codes sign in when no Stripe keys or OAuth clients are set; the answer fits its schema', async () => {
    const t = await openApp({ env: OFF });
    const { body } = await features(t.app);
    expect(offerSchema.parse(body.data)).toMatchObject({
      payments: { enabled: false },
      signIn: { email: true, google: false, github: false },
    });
    expect((await (await t.app.request('/payment/packs')).json()) as { data: { enabled: boolean } }).toMatchObject({
      data: { enabled: false },
    });
  });

  it('say payments work and which OAuth providers sign in when they are set', async () => {
    const t = await openApp({
      env: {
        ...OFF,
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        GITHUB_CLIENT_ID: 'github-client',
        GITHUB_CLIENT_SECRET: 'github-secret',
      },
    });
    const { body } = await features(t.app);
    expect(offerSchema.parse(body.data)).toMatchObject({
      payments: { enabled: true },
      signIn: { email: true, google: false, github: true },
    });
  });
});

describe('a feature no engine serves', () => {
  it('answers 503 with code 50301 and a message for developers on the public API; the setting to change is not named', async () => {
    const t = await openApp();
    const user = await t.createUser(100);
    const res = await t.app.request('/api/async/tryon_clothes', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.apiKey}` },
      body: JSON.stringify({ modelImageUrl: 'https://example.com/m.png', upperUrl: 'https://example.com/u.png' }),
    });
    expect(res.status).toBe(503);
    const body = (await res.json()) as { code: number; message: string; data: unknown };
    expect(body).toMatchObject({
      code: ERROR_CODES.featureUnavailable,
      message: FEATURE_MESSAGES.unavailable,
      data: null,
    });
    expect(JSON.stringify(body)).not.toMatch(/ENGINES|docs\//);
    const state = await t.creditState(user.id);
    expect(state.balance).toBe(100);
    expect(state.ledger.filter((r) => r.reason !== 'grant')).toEqual([]);
  });
});

describe('runs with no AI model (NO_MODEL_PRICE)', () => {
  it('are free by default: an eSpeak run holds and charges 0 credits and writes no ledger row; the result says which engine made it', async () => {
    const t = await openApp({ env: DEFAULT_PRICE, start: 'system' });
    const user = await t.createUser(5);
    const submitted = await tts(t.app, user, 'Hello from the offline voice.');
    expect(submitted.status).toBe(200);
    expect(submitted.body.data!.credits).toBe(0);
    const task = await t.waitForTask(submitted.body.data!.taskId);
    expect(task).toMatchObject({ status: 'succeeded', engine: 'espeak', credits_held: 0, credits_charged: 0 });
    const result = await t.app.request('/api/getAsyncResult', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.apiKey}` },
      body: JSON.stringify({ taskId: task.id }),
    });
    expect(((await result.json()) as { data: { task: Record<string, unknown> } }).data.task).toMatchObject({
      engine: 'espeak',
      engineLabel: ENGINE_LABELS.espeak,
      credits: 0,
    });
    const state = await t.creditState(user.id);
    expect(state.balance).toBe(5);
    expect(state.ledger.filter((r) => r.reference === task.id)).toEqual([]);
  });

  it('a free run needs no balance at all', async () => {
    const t = await openApp({ env: DEFAULT_PRICE });
    const user = await t.createUser(0);
    expect((await tts(t.app, user, 'Nothing in the account, and still it speaks.')).status).toBe(200);
  });

  it('are charged the §9 price with NO_MODEL_PRICE=full', async () => {
    const t = await openApp({ env: { NO_MODEL_PRICE: 'full' }, start: 'system' });
    const user = await t.createUser(5);
    const text = 'Charged like any other run.';
    const submitted = await tts(t.app, user, text);
    const task = await t.waitForTask(submitted.body.data!.taskId);
    expect(task).toMatchObject({
      status: 'succeeded',
      engine: 'espeak',
      credits_charged: quote('tts-common', { characters: text.length }),
    });
    expect((await t.creditState(user.id)).balance).toBe(5 - task.credits_charged!);
  });

  it('a run held at the AI price that falls back to a no-model engine is settled at 0 and the hold comes back', async () => {
    const t = await openApp({
      engines: [testEngine({ name: 'model', fail: 'provider down' })],
      env: { ...DEFAULT_PRICE, ENGINES: 'tts-common=model|espeak' },
      start: 'system',
    });
    const user = await t.createUser(5);
    const submitted = await tts(t.app, user, 'The model is down today.');
    expect(submitted.body.data!.credits).toBe(1);
    const task = await t.waitForTask(submitted.body.data!.taskId);
    expect(task).toMatchObject({ status: 'succeeded', engine: 'espeak', credits_held: 1, credits_charged: 0 });
    const state = await t.creditState(user.id);
    expect(state.balance).toBe(5);
    expect(state.ledger.filter((r) => r.reference === task.id).map((r) => [r.reason, r.delta])).toEqual([
      ['task-hold', -1],
      ['task-settle', 1],
    ]);
  });
});
