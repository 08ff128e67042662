// What a task is priced on, from its input: characters counted as billed, and the measures of the other features.
import { describe, expect, it } from 'vitest';
import { featurePrice } from './features';
import { characterCount, priceInputOf } from './price-input';
import { quote } from './quote';

describe('characterCount', () => {
  it('counts code points of the trimmed text, as the server bills them', () => {
    expect(characterCount('')).toBe(0);
    expect(characterCount('   \n ')).toBe(0);
    expect(characterCount('  hello  ')).toBe(5);
    expect(characterCount('😀😀')).toBe(2);
    expect(characterCount('你好，世界')).toBe(5);
  });
});

describe('priceInputOf', () => {
  it('prices speech on the characters of its text', () => {
    for (const feature of ['tts-common', 'tts-pro', 'tts-clone'] as const) {
      expect(priceInputOf(feature, { text: '😀 hello', voice: 'en-us-female-1' })).toEqual({ characters: 7 });
    }
    expect(priceInputOf('tts-common', {})).toEqual({ characters: 0 });
  });

  it('prices a dialogue on the characters of all its lines together', () => {
    const lines = [
      { speaker: 'A', text: 'a'.repeat(200) },
      { speaker: 'B', text: 'b'.repeat(100) },
    ];
    expect(priceInputOf('dialogue', { lines })).toEqual({ characters: 300 });
    const { itemId, params } = featurePrice('dialogue', priceInputOf('dialogue', { lines }));
    expect(quote(itemId, params)).toBe(2);
  });

  it('reads the measures of other features and ignores values of the wrong type', () => {
    expect(priceInputOf('text-to-video', { prompt: 'a cat', resolution: '1080p', durationS: 4 })).toEqual({
      count: undefined,
      seconds: undefined,
      resolution: '1080p',
      durationS: 4,
    });
    expect(priceInputOf('image-generation', { count: 3 }).count).toBe(3);
    expect(priceInputOf('talking-face', { seconds: 12.5 }).seconds).toBe(12.5);
    expect(priceInputOf('image-generation', { count: '3', seconds: '9' })).toMatchObject({
      count: undefined,
      seconds: undefined,
    });
  });
});
