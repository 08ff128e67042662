// Pins every row of the SPEC.md §9 credit price table, its grouping for the pricing page and the id lookups.

import { describe, expect, it } from 'vitest';
import { formatCharge, type Charge } from './charge';
import { PRICE_GROUPS, PRICE_ITEMS, isPriceItemId, priceItem } from './prices';

const flat = (credits: number): Charge => ({ kind: 'flat', credits });
const perSecond = (credits: number): Charge => ({ kind: 'perSecond', credits });
const perMinute = (credits: number): Charge => ({ kind: 'perMinute', credits });
const perCharacters = (credits: number, characters: number): Charge => ({ kind: 'perCharacters', credits, characters });
const free: Charge = { kind: 'free' };

// [§9 row, item id, charge, price text]
const SPEC_ROWS: [string, string, Charge, string][] = [
  ['Image generation: 2 each', 'image-generation', flat(2), '2 credits each'],
  ['Erase: 1', 'erase', flat(1), '1 credit each'],
  ['AI Model: 25', 'ai-model', flat(25), '25 credits each'],
  ['AI Try On: 25', 'ai-try-on', flat(25), '25 credits each'],
  ['Face swap: 3', 'face-swap', flat(3), '3 credits each'],
  ['restore: 3', 'restore', flat(3), '3 credits each'],
  ['Live Photo: 6', 'live-photo', flat(6), '6 credits each'],
  ['LipSync: 1 per second', 'lip-sync', perSecond(1), '1 credit per second'],
  ['Talking image: 2 per second', 'talking-image', perSecond(2), '2 credits per second'],
  ['Text-to-video 4s 512p: 20', 'text-to-video-4s-512p', flat(20), '20 credits each'],
  ['Text-to-video 4s 720p: 60', 'text-to-video-4s-720p', flat(60), '60 credits each'],
  ['Text-to-video 8s 720p: 120', 'text-to-video-8s-720p', flat(120), '120 credits each'],
  ['Text-to-video 4s 1080p: 180', 'text-to-video-4s-1080p', flat(180), '180 credits each'],
  ['Wan2.1 5s 480p: 15', 'wan21-5s-480p', flat(15), '15 credits each'],
  ['Wan2.1 5s 720p: 30', 'wan21-5s-720p', flat(30), '30 credits each'],
  ['Video translate lip-sync: 3 per second', 'video-translate-lip-sync', perSecond(3), '3 credits per second'],
  ['Video translate voice only: 2 per second', 'video-translate-voice-only', perSecond(2), '2 credits per second'],
  ['TTS Common: 1 per 250 characters', 'tts-common', perCharacters(1, 250), '1 credit per 250 characters'],
  ['TTS Pro: 1 per 200 characters', 'tts-pro', perCharacters(1, 200), '1 credit per 200 characters'],
  ['STT Common: 1 per minute', 'stt-common', perMinute(1), '1 credit per minute'],
  ['STT Pro: 2 per minute', 'stt-pro', perMinute(2), '2 credits per minute'],
  ['Video matting: 1 per second', 'video-matting', perSecond(1), '1 credit per second'],
  ['Document recognition: free', 'document-recognition', free, 'Free'],
  ['Voice clone: free', 'voice-clone', free, 'Free'],
  ['Available credits: free', 'available-credits', free, 'Free'],
];

// [item id, resolution, duration in s]: the text-to-video and Wan2.1 rows, in table order.
const VIDEO_ROWS: [string, string, number][] = [
  ['text-to-video-4s-512p', '512p', 4],
  ['text-to-video-4s-720p', '720p', 4],
  ['text-to-video-8s-720p', '720p', 8],
  ['text-to-video-4s-1080p', '1080p', 4],
  ['wan21-5s-480p', '480p', 5],
  ['wan21-5s-720p', '720p', 5],
];
const VIDEO_IDS = VIDEO_ROWS.map(([id]) => id);

const allItems = PRICE_GROUPS.flatMap((group) => group.items);

describe('§9 credit prices', () => {
  it.each(SPEC_ROWS)('row "%s" is item %s charged %j', (_row, id, charge, text) => {
    const item = priceItem(id);
    expect(item).toBeDefined();
    expect(item?.charge).toEqual(charge);
    expect(item?.priceText).toBe(text);
  });

  it('the table holds exactly the §9 rows, nothing more', () => {
    expect(allItems.map((item) => item.id).sort()).toEqual(SPEC_ROWS.map(([, id]) => id).sort());
  });

  it.each(VIDEO_ROWS)('video row %s carries resolution %s and duration %i s', (id, resolution, durationS) => {
    expect(priceItem(id)).toMatchObject({ resolution, durationS });
  });

  it('only the text-to-video and Wan2.1 rows carry a resolution', () => {
    const withResolution = allItems.filter((item) => item.resolution !== undefined).map((item) => item.id);
    expect(withResolution).toEqual(VIDEO_IDS);
  });

  it('every price text is the formatted charge, so text and charge agree', () => {
    expect(allItems).toHaveLength(SPEC_ROWS.length);
    for (const item of allItems) expect(item.priceText).toBe(formatCharge(item.charge));
  });

  it('every non-free charge is a positive whole number of credits', () => {
    expect(allItems).toHaveLength(SPEC_ROWS.length);
    for (const { charge } of allItems) {
      if (charge.kind === 'free') continue;
      expect(Number.isInteger(charge.credits) && charge.credits > 0).toBe(true);
    }
  });
});

describe('pricing page groups', () => {
  it('groups the rows by feature, in page order', () => {
    expect(PRICE_GROUPS.map((group) => [group.id, group.title])).toEqual([
      ['image', 'Image'],
      ['video', 'Video'],
      ['avatar', 'Avatar & lip sync'],
      ['video-translation', 'Video translation'],
      ['speech', 'Speech & audio'],
      ['other', 'Other'],
    ]);
  });

  it.each([
    ['image', ['image-generation', 'erase', 'ai-model', 'ai-try-on', 'face-swap', 'restore']],
    ['video', ['live-photo', ...VIDEO_IDS, 'video-matting']],
    ['avatar', ['lip-sync', 'talking-image']],
    ['video-translation', ['video-translate-lip-sync', 'video-translate-voice-only']],
    ['speech', ['tts-common', 'tts-pro', 'stt-common', 'stt-pro', 'voice-clone']],
    ['other', ['document-recognition', 'available-credits']],
  ])('group %s lists its items in order', (groupId, ids) => {
    const group = PRICE_GROUPS.find((g) => g.id === groupId);
    expect(group?.items.map((item) => item.id)).toEqual(ids);
  });

  it('every item has a name and appears in exactly one group', () => {
    const ids = allItems.map((item) => item.id);
    expect(ids).toHaveLength(SPEC_ROWS.length);
    expect(new Set(ids).size).toBe(ids.length);
    for (const item of allItems) expect(item.name.length).toBeGreaterThan(0);
  });

  it('the shared table cannot be changed by a consumer', () => {
    expect(Object.isFrozen(PRICE_GROUPS)).toBe(true);
    expect(Object.isFrozen(PRICE_ITEMS)).toBe(true);
    expect(Object.isFrozen(priceItem('erase'))).toBe(true);
    expect(Object.isFrozen(priceItem('erase')?.charge)).toBe(true);
  });
});

describe('price lookup by id', () => {
  it('PRICE_ITEMS holds every item of every group under its id', () => {
    expect(Object.keys(PRICE_ITEMS)).toHaveLength(SPEC_ROWS.length);
    for (const item of allItems) expect(PRICE_ITEMS[item.id as keyof typeof PRICE_ITEMS]).toBe(item);
  });

  it.each(SPEC_ROWS.map(([, id]) => id))('known id %s is a price item id', (id) => {
    expect(isPriceItemId(id)).toBe(true);
  });

  it.each(['', 'nope', 'TTS-COMMON', '__proto__', 'toString', 'constructor', 'hasOwnProperty'])(
    'unknown id %j finds no item',
    (id) => {
      expect(priceItem(id)).toBeUndefined();
      expect(isPriceItemId(id)).toBe(false);
    },
  );

  it.each([undefined, null, 42, {}])('non-string id %j is not a price item id', (id) => {
    expect(isPriceItemId(id)).toBe(false);
  });
});
