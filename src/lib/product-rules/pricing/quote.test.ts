// Pins how quote() turns the SPEC.md §9 price table into credits: rounding edges, count, and rejected parameters.

import { describe, expect, it } from 'vitest';
import { PRICE_GROUPS } from './prices';
import { QuoteError, quote, type QuoteParams } from './quote';

describe('§9 quote rounding', () => {
  it.each<[string, string, QuoteParams, number]>([
    ['TTS Common: 1 character costs 1', 'tts-common', { characters: 1 }, 1],
    ['TTS Common: 250 characters cost 1', 'tts-common', { characters: 250 }, 1],
    ['TTS Common: 251 characters cost 2', 'tts-common', { characters: 251 }, 2],
    ['TTS Common: 500 characters cost 2', 'tts-common', { characters: 500 }, 2],
    ['TTS Common: 0 characters cost 0', 'tts-common', { characters: 0 }, 0],
    ['TTS Pro: 200 characters cost 1', 'tts-pro', { characters: 200 }, 1],
    ['TTS Pro: 201 characters cost 2', 'tts-pro', { characters: 201 }, 2],
    ['STT Common: 1 minute costs 1', 'stt-common', { minutes: 1 }, 1],
    ['STT Common: 1.01 minutes cost 2', 'stt-common', { minutes: 1.01 }, 2],
    ['STT Pro: 0.5 minute costs 2', 'stt-pro', { minutes: 0.5 }, 2],
    ['STT Pro: 3 minutes cost 6', 'stt-pro', { minutes: 3 }, 6],
    ['LipSync: 0.2 s costs 1', 'lip-sync', { seconds: 0.2 }, 1],
    ['LipSync: 10 s cost 10', 'lip-sync', { seconds: 10 }, 10],
    ['LipSync: 0 s costs 0', 'lip-sync', { seconds: 0 }, 0],
    ['Talking image: 4.5 s cost 10', 'talking-image', { seconds: 4.5 }, 10],
    ['Talking image: 4 s cost 8', 'talking-image', { seconds: 4 }, 8],
    ['Video translate lip-sync: 10.1 s cost 33', 'video-translate-lip-sync', { seconds: 10.1 }, 33],
    ['Video translate voice only: 60 s cost 120', 'video-translate-voice-only', { seconds: 60 }, 120],
    ['Video matting: 2.9 s cost 3', 'video-matting', { seconds: 2.9 }, 3],
  ])('%s', (_rule, itemId, params, credits) => {
    expect(quote(itemId, params)).toBe(credits);
  });
});

describe('§9 flat and free items', () => {
  it.each<[string, string, QuoteParams, number]>([
    ['one generated image costs 2', 'image-generation', {}, 2],
    ['four generated images cost 8', 'image-generation', { count: 4 }, 8],
    ['zero images cost 0', 'image-generation', { count: 0 }, 0],
    ['erase costs 1', 'erase', {}, 1],
    ['AI Model costs 25', 'ai-model', {}, 25],
    ['AI Try On costs 25', 'ai-try-on', {}, 25],
    ['face swap costs 3', 'face-swap', {}, 3],
    ['restore costs 3', 'restore', {}, 3],
    ['Live Photo costs 6', 'live-photo', {}, 6],
    ['text-to-video 4s 512p costs 20', 'text-to-video-4s-512p', {}, 20],
    ['text-to-video 4s 720p costs 60', 'text-to-video-4s-720p', {}, 60],
    ['text-to-video 8s 720p costs 120', 'text-to-video-8s-720p', {}, 120],
    ['text-to-video 4s 1080p costs 180', 'text-to-video-4s-1080p', {}, 180],
    ['Wan2.1 5s 480p costs 15', 'wan21-5s-480p', {}, 15],
    ['Wan2.1 5s 720p costs 30', 'wan21-5s-720p', {}, 30],
    ['a flat item ignores measures it does not use', 'erase', { seconds: 99, characters: 99 }, 1],
    ['voice clone is free', 'voice-clone', {}, 0],
    ['document recognition is free', 'document-recognition', {}, 0],
    ['available credits query is free', 'available-credits', {}, 0],
    ['free stays free for any count', 'voice-clone', { count: 5 }, 0],
  ])('%s', (_rule, itemId, params, credits) => {
    expect(quote(itemId, params)).toBe(credits);
  });

  it('quote works without a params argument for flat items', () => {
    expect(quote('erase')).toBe(1);
  });
});

describe('count multiplies every kind of charge', () => {
  it.each<[string, string, QuoteParams, number]>([
    ['3 TTS tasks of 251 characters cost 6', 'tts-common', { characters: 251, count: 3 }, 6],
    ['2 lip-sync clips of 0.2 s cost 2', 'lip-sync', { seconds: 0.2, count: 2 }, 2],
    ['2 STT Pro files of 1.5 minutes cost 8', 'stt-pro', { minutes: 1.5, count: 2 }, 8],
  ])('%s', (_rule, itemId, params, credits) => {
    expect(quote(itemId, params)).toBe(credits);
  });
});

describe('every price item can be quoted', () => {
  const sample: QuoteParams = { seconds: 1, characters: 1, minutes: 1 };
  it.each(PRICE_GROUPS.flatMap((group) => group.items.map((item) => [item.id, item.charge] as const)))(
    '%s gives a whole number of credits equal to one unit',
    (id, charge) => {
      const credits = quote(id, sample);
      expect(credits).toBe(charge.kind === 'free' ? 0 : charge.credits);
    },
  );
});

describe('quote rejects bad input with a QuoteError', () => {
  function quoteError(itemId: string, params?: QuoteParams): QuoteError {
    try {
      quote(itemId, params);
    } catch (error) {
      if (error instanceof QuoteError) return error;
      throw error;
    }
    throw new Error(`quote('${itemId}') did not throw`);
  }

  it.each(['', 'nope', '__proto__', 'toString'])('unknown item %j', (itemId) => {
    const error = quoteError(itemId, {});
    expect(error.code).toBe('unknownItem');
    expect(error.message).toContain('Unknown price item');
  });

  it.each<[string, string, QuoteParams, string]>([
    ['per-second item without seconds', 'lip-sync', {}, 'seconds'],
    ['per-second item given minutes instead', 'talking-image', { minutes: 1 }, 'seconds'],
    ['per-characters item without characters', 'tts-common', { seconds: 5 }, 'characters'],
    ['per-minute item without minutes', 'stt-common', {}, 'minutes'],
  ])('missing measure: %s', (_case, itemId, params, param) => {
    const error = quoteError(itemId, params);
    expect(error.code).toBe('missingParam');
    expect(error.param).toBe(param);
    expect(error.message).toContain(param);
  });

  it.each<[string, string, QuoteParams, string]>([
    ['negative seconds', 'lip-sync', { seconds: -1 }, 'seconds'],
    ['NaN seconds', 'lip-sync', { seconds: Number.NaN }, 'seconds'],
    ['infinite seconds', 'lip-sync', { seconds: Number.POSITIVE_INFINITY }, 'seconds'],
    ['seconds as a string', 'lip-sync', { seconds: '5' as unknown as number }, 'seconds'],
    ['negative characters', 'tts-pro', { characters: -250 }, 'characters'],
    ['fractional characters', 'tts-pro', { characters: 2.5 }, 'characters'],
    ['NaN characters', 'tts-pro', { characters: Number.NaN }, 'characters'],
    ['negative minutes', 'stt-pro', { minutes: -0.1 }, 'minutes'],
    ['NaN minutes', 'stt-pro', { minutes: Number.NaN }, 'minutes'],
    ['negative count', 'erase', { count: -1 }, 'count'],
    ['fractional count', 'erase', { count: 1.5 }, 'count'],
    ['NaN count', 'image-generation', { count: Number.NaN }, 'count'],
    ['bad count on a free item', 'voice-clone', { count: -2 }, 'count'],
    ['bad count on a per-second item', 'lip-sync', { seconds: 3, count: -1 }, 'count'],
  ])('invalid parameter: %s', (_case, itemId, params, param) => {
    const error = quoteError(itemId, params);
    expect(error.code).toBe('invalidParam');
    expect(error.param).toBe(param);
    expect(error.message).toContain(param);
  });

  it('QuoteError is an Error named QuoteError', () => {
    const error = quoteError('nope');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('QuoteError');
  });
});
