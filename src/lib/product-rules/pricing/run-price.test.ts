// What one run costs: the list price, NO_MODEL_PRICE for runs no AI model makes, and the preview, hold and charge
// agreeing for every feature.
import { describe, expect, it } from 'vitest';
import { FEATURES, featurePrice, INPUT_LENGTH_FEATURES, PER_SECOND_FEATURES } from './features';
import { quote } from './quote';
import {
  chainUsesModel,
  chargePrice,
  engineUsesModel,
  holdPrice,
  listPrice,
  previewPrice,
  runPrice,
  runsFree,
  type NoModelPrice,
} from './run-price';

const MEASURES = { characters: 777, seconds: 61.5, resolution: '720p', durationS: 8, count: 2 };
const engines = (...names: string[]) => names.map((name) => ({ name }));

describe('listPrice', () => {
  it('is quote() of the item the feature is charged under, for every feature', () => {
    for (const feature of FEATURES) {
      const { itemId, params } = featurePrice(feature, MEASURES);
      expect(listPrice(feature, MEASURES), feature).toEqual({ itemId, credits: quote(itemId, params) });
    }
    expect(listPrice('tts-common', { characters: 600 }).credits).toBe(3);
    expect(listPrice('text-to-video', { durationS: 4, resolution: '1080p' }).credits).toBe(180);
  });
});

describe('runPrice', () => {
  const measures = { characters: 600 };

  it('charges the §9 price when an AI model may make the run, whatever NO_MODEL_PRICE says', () => {
    for (const noModelPrice of ['free', 'full'] as const) {
      expect(runPrice('tts-common', measures, { usesModel: true, noModelPrice })).toEqual({
        itemId: 'tts-common',
        credits: 3,
        free: false,
      });
    }
  });

  it('charges 0 for a run with no AI model while NO_MODEL_PRICE is free, the §9 price when it is full', () => {
    expect(runPrice('tts-common', measures, { usesModel: false, noModelPrice: 'free' })).toEqual({
      itemId: 'tts-common',
      credits: 0,
      free: true,
    });
    expect(runsFree({ usesModel: false, noModelPrice: 'free' })).toBe(true);
    expect(runsFree({ usesModel: false, noModelPrice: 'full' })).toBe(false);
    expect(
      runPrice('text-to-video', { durationS: 4, resolution: '1080p' }, { usesModel: false, noModelPrice: 'full' }),
    ).toEqual({ itemId: 'text-to-video-4s-1080p', credits: 180, free: false });
  });

  it('knows which engines make output without an AI model, and a chain uses one when any engine does', () => {
    expect(['espeak', 'preview'].map(engineUsesModel)).toEqual([false, false]);
    expect(['fal', 'elevenlabs', 'dreamapi'].map(engineUsesModel)).toEqual([true, true, true]);
    expect(chainUsesModel(engines('espeak', 'preview'))).toBe(false);
    expect(chainUsesModel(engines('espeak', 'fal'))).toBe(true);
    expect(chainUsesModel([])).toBe(false);
  });
});

describe('hold and charge', () => {
  it('holds the dearest engine of the chain and charges the engine that made the result', () => {
    const chain = engines('fal', 'espeak');
    expect(holdPrice('tts-common', { characters: 300 }, chain, 'free').credits).toBe(2);
    expect(chargePrice('tts-common', { characters: 300 }, 'fal', 'free')).toBe(2);
    // The free fallback made it: charged 0, so settling gives the whole hold back.
    expect(chargePrice('tts-common', { characters: 300 }, 'espeak', 'free')).toBe(0);
    expect(chargePrice('tts-common', { characters: 300 }, 'espeak', 'full')).toBe(2);
    expect(holdPrice('tts-pro', { characters: 300 }, engines('espeak'), 'free')).toEqual({
      itemId: 'tts-pro',
      credits: 0,
      free: true,
    });
  });
});

describe('previewPrice', () => {
  it('is unknown (null) while a charged run priced by length has no length, 0 when the run is free', () => {
    for (const feature of FEATURES) {
      const byLength = PER_SECOND_FEATURES.includes(feature) || INPUT_LENGTH_FEATURES.includes(feature);
      expect(previewPrice(feature, {}, { usesModel: true, noModelPrice: 'free' }) === null, feature).toBe(byLength);
      expect(previewPrice(feature, {}, { usesModel: false, noModelPrice: 'full' }) === null, feature).toBe(byLength);
      expect(previewPrice(feature, {}, { usesModel: false, noModelPrice: 'free' }), feature).toBe(0);
    }
    expect(previewPrice('stt-pro', { seconds: 90 }, { usesModel: true, noModelPrice: 'free' })).toBe(4);
  });
});

describe('one price for preview, hold and charge', () => {
  // Chains as a server may configure them: AI models only, no AI model only, and an AI model first with a free
  // fallback that did not have to step in.
  const chains = [engines('fal'), engines('espeak'), engines('preview'), engines('dreamapi', 'espeak')];

  it('agrees for every feature, chain and NO_MODEL_PRICE (free no-model runs too) when the measures hold', () => {
    for (const feature of FEATURES) {
      for (const chain of chains) {
        for (const noModelPrice of ['free', 'full'] as NoModelPrice[]) {
          const what = `${feature} on ${chain.map((e) => e.name).join(',')} (${noModelPrice})`;
          // What the features answer tells the playground, which it hands to previewPrice().
          const preview = previewPrice(feature, MEASURES, { usesModel: chainUsesModel(chain), noModelPrice });
          const hold = holdPrice(feature, MEASURES, chain, noModelPrice).credits;
          const charge = chargePrice(feature, MEASURES, chain[0]!.name, noModelPrice);
          expect(hold, what).toBe(preview);
          expect(charge, what).toBe(hold);
          const free = noModelPrice === 'free' && !chainUsesModel(chain);
          expect(hold === 0, what).toBe(free || listPrice(feature, MEASURES).credits === 0);
        }
      }
    }
  });
});
