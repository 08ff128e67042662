// The playground's cost preview is the server's price: priceInputOf(), featurePrice(), quote() and runPrice() of
// src/lib/product-rules.
import { describe, expect, it } from 'vitest';
import {
  engineLabel,
  FEATURES,
  featurePrice,
  priceItem,
  quote,
  runPrice,
  TEXT_TO_VIDEO_OPTIONS,
  type Feature,
} from '../../lib/product-rules';
import type { FeatureMap } from '../../lib/site/features';
import { costNote, costOf, dialogueCost, perSecondText, speechCost, unitPriceText } from './pricing';

describe('costOf', () => {
  it('is quote() of the feature price for every feature, given every measure', () => {
    const input = { characters: 777, seconds: 61, resolution: '720p', durationS: 8, count: 2 };
    for (const feature of FEATURES) {
      const { itemId, params } = featurePrice(feature, input);
      expect(costOf(feature, input), feature).toBe(quote(itemId, params));
    }
  });

  it('is unknown (null) while a feature billed by length has no length yet, and known for the rest', () => {
    for (const feature of FEATURES) {
      const { params } = featurePrice(feature, {});
      const byLength = 'seconds' in params || 'minutes' in params;
      expect(costOf(feature, {}) === null, feature).toBe(byLength);
    }
    expect(costOf('talking-face', {})).toBeNull();
    expect(costOf('talking-face', { seconds: 12.2 })).toBe(quote('lip-sync', { seconds: 12.2 }));
    expect(costOf('video-translate-lip-sync', { seconds: 10 })).toBe(30);
  });

  it('prices each clip option with its own §9 item', () => {
    for (const o of TEXT_TO_VIDEO_OPTIONS) {
      for (const feature of ['text-to-video', 'image-to-video', 'character-to-video'] as const) {
        expect(costOf(feature, { resolution: o.resolution, durationS: o.durationS })).toBe(quote(o.itemId));
      }
    }
  });
});

describe('speechCost', () => {
  it('charges per started block of characters, Common and Pro at their own rates', () => {
    expect(speechCost('', 'common')).toBe(0);
    expect(speechCost('x'.repeat(250), 'common')).toBe(1);
    expect(speechCost('x'.repeat(251), 'common')).toBe(2);
    expect(speechCost('x'.repeat(251), 'pro')).toBe(quote('tts-pro', { characters: 251 }));
    expect(speechCost('x'.repeat(251), 'pro')).toBe(2);
    expect(speechCost('x'.repeat(401), 'pro')).toBe(3);
  });

  it('prices a cloned voice as the clone feature whatever the quality says', () => {
    const text = 'y'.repeat(401);
    const { itemId, params } = featurePrice('tts-clone', { characters: 401 });
    expect(speechCost(text, 'pro', true)).toBe(quote(itemId, params));
    expect(speechCost(text, 'pro', true)).toBe(speechCost(text, 'common', true));
  });

  it('does not bill surrounding whitespace', () => {
    expect(speechCost(`  ${'z'.repeat(250)}  \n`, 'common')).toBe(1);
  });
});

describe('dialogueCost', () => {
  it('bills the characters of all lines together, once', () => {
    // Two short lines are one started block, not one block each.
    expect(dialogueCost([{ text: 'Hello there' }, { text: 'Hi!' }])).toBe(1);
    expect(dialogueCost([{ text: 'a'.repeat(200) }, { text: 'b'.repeat(100) }])).toBe(
      quote('tts-common', { characters: 300 }),
    );
    expect(dialogueCost([{ text: '  ' }])).toBe(0);
  });
});

describe('the features answer in the preview (NO_MODEL_PRICE)', () => {
  const answer = (
    feature: Feature,
    usesModel: boolean,
    noModelPrice: 'free' | 'full',
    engine = usesModel ? 'fal' : 'preview',
  ): FeatureMap =>
    new Map([
      [
        feature,
        { feature, available: true, engine, engineLabel: engineLabel(engine), usesModel, noModelPrice, priceNote: '' },
      ],
    ]);

  it('is runPrice(), the function the server holds and charges with, for every feature and billing', () => {
    const input = { characters: 777, seconds: 61, resolution: '720p', durationS: 8, count: 2 };
    for (const feature of FEATURES) {
      for (const [usesModel, noModelPrice] of [
        [true, 'free'],
        [false, 'free'],
        [false, 'full'],
      ] as const) {
        expect(costOf(feature, input, answer(feature, usesModel, noModelPrice)), feature).toBe(
          runPrice(feature, input, { usesModel, noModelPrice }).credits,
        );
      }
    }
  });

  it('shows a free run as 0 before its file is chosen, and says why', () => {
    const free = answer('talking-image', false, 'free');
    expect(costOf('talking-image', {}, free)).toBe(0);
    expect(costNote('talking-image', free)).toBe('Free here: preview engine (no AI model)');
    expect(costOf('talking-image', {}, answer('talking-image', false, 'full'))).toBeNull();
    expect(costNote('talking-image', answer('talking-image', false, 'full'))).toBeNull();
    expect(costNote('talking-image', answer('talking-image', true, 'free'))).toBeNull();
    expect(speechCost('x'.repeat(600), 'common', false, answer('tts-common', false, 'free', 'espeak'))).toBe(0);
    expect(dialogueCost([{ text: 'x'.repeat(600) }], answer('dialogue', false, 'free', 'espeak'))).toBe(0);
  });

  it('states the unit price beside the input as the cost does: free here, else the price list', () => {
    const listed = priceItem(featurePrice('tts-common', {}).itemId)!.priceText;
    expect(unitPriceText('tts-common', answer('tts-common', false, 'free', 'espeak'))).toBe(
      `Free here: ${engineLabel('espeak')}`,
    );
    expect(unitPriceText('tts-common', answer('tts-common', false, 'full', 'espeak'))).toBe(listed);
    expect(unitPriceText('tts-common', answer('tts-common', true, 'free'))).toBe(listed);
    expect(unitPriceText('tts-common', null)).toBe(listed);
  });

  it('shows the full price while the answer is unknown or the feature is not served (never less than the hold)', () => {
    expect(costOf('text-to-video', { durationS: 4, resolution: '512p' }, null)).toBe(20);
    const unserved: FeatureMap = new Map([
      [
        'text-to-video',
        {
          feature: 'text-to-video',
          available: false,
          engine: null,
          engineLabel: null,
          usesModel: false,
          noModelPrice: 'free',
          priceNote: '',
        },
      ],
    ]);
    expect(costOf('text-to-video', { durationS: 4, resolution: '512p' }, unserved)).toBe(20);
    expect(costNote('text-to-video', unserved)).toBeNull();
  });
});

describe('perSecondText', () => {
  it('says a per-second rate in words, one credit in the singular', () => {
    expect(perSecondText(1)).toBe('1 credit per second');
    expect(perSecondText(3)).toBe('3 credits per second');
    expect(perSecondText(null)).toBe('— credits per second');
  });
});
