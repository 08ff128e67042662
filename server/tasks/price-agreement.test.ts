// One price per run: for every feature, the cost preview the features answer leads the playground to show is what the
// task service holds at submit and charges when the run settles, on AI-model and no-model engines, NO_MODEL_PRICE free
// and full.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chargePrice,
  FEATURES,
  previewPrice,
  priceInputOf,
  type Feature,
  type NoModelPrice,
} from '../../src/lib/product-rules';
import { createEngineRegistry, type Engine } from '../engines';
import { createLogger } from '../log';
import { featureStates } from '../routes/features';
import { APP_DATABASES } from '../test-support/app-databases';
import { createTasksTestApp, createUser, creditState, type TasksTestApp, type TestUser } from '../test-support/tasks';
import { silentWav } from '../test-support/wav';
import { createTaskService } from './service';

/** The length every input file measures, at submit as in the playground (an upload's durationS). */
const SECONDS = 61.5;
/** One input carrying every measure any feature is priced on; the engines here read none of the rest. */
const INPUT = {
  text: 'x'.repeat(777),
  lines: [
    { speaker: 'A', text: 'a'.repeat(300) },
    { speaker: 'B', text: 'b'.repeat(260) },
  ],
  count: 2,
  resolution: '720p',
  durationS: 8,
  audioUrl: 'https://example.com/in.wav',
  videoUrl: 'https://example.com/in.mp4',
};

/** An engine for every feature whose output is as long as its input, so the real length is the one held on. */
function engine(name: string, fail = false): Engine {
  return {
    name,
    features: FEATURES,
    async run(_feature, input) {
      if (fail) throw new Error('the model is away');
      const seconds = (input as { seconds?: number }).seconds ?? 1;
      return { outputs: [{ kind: 'audio', mime: 'audio/wav', data: silentWav(0.01, 8000), durationS: seconds }] };
    },
  };
}

const SETUPS: Array<{ label: string; chain: Engine[]; madeBy: string }> = [
  { label: 'an AI model', chain: [engine('model')], madeBy: 'model' },
  { label: 'no AI model', chain: [engine('espeak')], madeBy: 'espeak' },
  {
    label: 'an AI model failing over to no AI model',
    chain: [engine('model', true), engine('espeak')],
    madeBy: 'espeak',
  },
];

describe.each(APP_DATABASES)('preview, hold and charge on $label', ({ postgres }) => {
  let t: TasksTestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTasksTestApp({ postgres });
    user = await createUser(t, 1_000_000);
  });
  afterAll(() => t.close());

  /** Submits and runs one task of `feature` on a service with this chain and NO_MODEL_PRICE; answers the task row. */
  async function run(feature: Feature, chain: Engine[], noModelPrice: NoModelPrice) {
    const engines = createEngineRegistry(Object.fromEntries(FEATURES.map((f) => [f, chain.map((e) => e.name)])), chain);
    const service = createTaskService({
      db: t.database.db,
      engines,
      media: t.system.media,
      config: { ...t.config.tasks, noModelPrice, perUserConcurrent: 1000 },
      log: createLogger('silent'),
      publicUrl: t.config.publicUrl,
      readInput: async (url, kinds) => ({ data: Buffer.alloc(0), mime: '', kind: kinds[0]!, durationS: SECONDS, url }),
    });
    const { task } = await service.submit({ userId: user.id, feature, input: INPUT, source: 'playground' });
    const claimed = await service.claim(task.id);
    await service.run(claimed!.task, new AbortController().signal);
    return { held: task.credits_held, done: (await service.byId(task.id))!, engines };
  }

  for (const setup of SETUPS) {
    for (const noModelPrice of ['free', 'full'] as const) {
      it(`agree for every feature on ${setup.label}, NO_MODEL_PRICE=${noModelPrice}`, async () => {
        for (const feature of FEATURES) {
          const start = (await creditState(t, user.id)).balance;
          const { held, done, engines } = await run(feature, setup.chain, noModelPrice);
          // What the playground is told (the features answer) and what it measured (the upload's length).
          const state = featureStates(engines, noModelPrice).find((s) => s.feature === feature)!;
          const measures = priceInputOf(feature, { ...INPUT, seconds: SECONDS });
          const preview = previewPrice(feature, measures, state);
          expect(done.status, `${feature}: ${done.error}`).toBe('succeeded');
          expect(done.engine, feature).toBe(setup.madeBy);
          expect(held, `${feature}: held`).toBe(preview);
          // The charge is the price on the engine that made the result: the hold, unless a free engine stepped in.
          expect(done.credits_charged, `${feature}: charged`).toBe(
            chargePrice(feature, measures, setup.madeBy, noModelPrice),
          );
          if (setup.chain.length === 1) expect(done.credits_charged, `${feature}: charged`).toBe(preview);
          const state2 = await creditState(t, user.id);
          expect(start - state2.balance, `${feature}: balance`).toBe(done.credits_charged);
          expect(state2.ledgerSum).toBe(state2.balance);
        }
      });
    }
  }

  it('prices free no-model runs at 0 in all three, and charged runs at more than 0', async () => {
    const free = await run('tts-common', [engine('espeak')], 'free');
    expect([free.held, free.done.credits_charged]).toEqual([0, 0]);
    const full = await run('tts-common', [engine('espeak')], 'full');
    expect([full.held, full.done.credits_charged]).toEqual([4, 4]);
    const fallback = await run('image-generation', [engine('model', true), engine('espeak')], 'free');
    expect([fallback.held, fallback.done.credits_charged]).toEqual([4, 0]);
  });
});
