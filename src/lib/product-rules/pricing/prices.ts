// The credit price table of SPEC.md §9 as typed data, grouped by feature for the pricing page, with lookups by id.

import { formatCharge, type Charge } from './charge';

/** One priced feature (SPEC.md §3 "Credit price table": name, resolution, price text). */
export interface PriceItem {
  id: string;
  name: string;
  /** Output resolution, for rows priced per resolution (text-to-video, Wan2.1). */
  resolution?: string;
  /** Output length in seconds, for rows priced per clip length (text-to-video, Wan2.1). */
  durationS?: number;
  /** What the pricing page shows; always formatCharge(charge), so text and charge cannot disagree. */
  priceText: string;
  /** What the server charges (see quote.ts). */
  charge: Charge;
}

/** A feature group of the pricing page (SPEC.md §3: a title and a list of items). */
export interface PriceGroup {
  id: string;
  title: string;
  items: readonly PriceItem[];
}

interface ItemDetails {
  resolution?: string;
  durationS?: number;
}

function item<const Id extends string>(
  id: Id,
  name: string,
  charge: Charge,
  details: ItemDetails = {},
): PriceItem & { id: Id } {
  return Object.freeze({
    id,
    name,
    ...details,
    priceText: formatCharge(charge),
    charge: Object.freeze(charge),
  });
}

function group<const Id extends string, const Items extends readonly PriceItem[]>(
  id: Id,
  title: string,
  items: Items,
): { id: Id; title: string; items: Items } {
  return Object.freeze({ id, title, items: Object.freeze(items) });
}

const flat = (credits: number): Charge => ({ kind: 'flat', credits });
const perSecond = (credits: number): Charge => ({ kind: 'perSecond', credits });
const perMinute = (credits: number): Charge => ({ kind: 'perMinute', credits });
const perCharacters = (credits: number, characters: number): Charge => ({ kind: 'perCharacters', credits, characters });
const free: Charge = { kind: 'free' };

// Every row of the SPEC.md §9 "Credit prices" table appears below. Rows that name two features
// ("AI Model, AI Try On", "Face swap, restore") become two items with the same price; rows with a
// "Pro" figure (TTS, STT) become a Common and a Pro item.
const TABLE = [
  group('image', 'Image', [
    item('image-generation', 'Image generation', flat(2)),
    item('erase', 'Erase', flat(1)),
    item('ai-model', 'AI Model', flat(25)),
    item('ai-try-on', 'AI Try On', flat(25)),
    item('face-swap', 'Face swap', flat(3)),
    item('restore', 'Restore', flat(3)),
  ]),
  group('video', 'Video', [
    item('live-photo', 'Live Photo', flat(6)),
    item('text-to-video-4s-512p', 'Text-to-video 4s', flat(20), { resolution: '512p', durationS: 4 }),
    item('text-to-video-4s-720p', 'Text-to-video 4s', flat(60), { resolution: '720p', durationS: 4 }),
    item('text-to-video-8s-720p', 'Text-to-video 8s', flat(120), { resolution: '720p', durationS: 8 }),
    item('text-to-video-4s-1080p', 'Text-to-video 4s', flat(180), { resolution: '1080p', durationS: 4 }),
    item('wan21-5s-480p', 'Wan2.1 5s', flat(15), { resolution: '480p', durationS: 5 }),
    item('wan21-5s-720p', 'Wan2.1 5s', flat(30), { resolution: '720p', durationS: 5 }),
    item('video-matting', 'Video matting', perSecond(1)),
  ]),
  group('avatar', 'Avatar & lip sync', [
    item('lip-sync', 'LipSync', perSecond(1)),
    item('talking-image', 'Talking image', perSecond(2)),
  ]),
  group('video-translation', 'Video translation', [
    item('video-translate-lip-sync', 'Video translate with lip-sync', perSecond(3)),
    item('video-translate-voice-only', 'Video translate, voice only', perSecond(2)),
  ]),
  group('speech', 'Speech & audio', [
    item('tts-common', 'Text to speech (Common)', perCharacters(1, 250)),
    item('tts-pro', 'Text to speech (Pro)', perCharacters(1, 200)),
    item('stt-common', 'Speech to text (Common)', perMinute(1)),
    item('stt-pro', 'Speech to text (Pro)', perMinute(2)),
    item('voice-clone', 'Voice clone', free),
  ]),
  group('other', 'Other', [
    item('document-recognition', 'Document recognition', free),
    item('available-credits', 'Available credits query', free),
  ]),
] as const;

/** Id of a price-table item, e.g. 'tts-common'. */
export type PriceItemId = (typeof TABLE)[number]['items'][number]['id'];

/** Id of a pricing-page group, e.g. 'speech'. */
export type PriceGroupId = (typeof TABLE)[number]['id'];

/** The price table in pricing-page order. */
export const PRICE_GROUPS: readonly PriceGroup[] = Object.freeze(TABLE);

/** Every price item by id. */
export const PRICE_ITEMS: Readonly<Record<PriceItemId, PriceItem>> = Object.freeze(
  Object.fromEntries(TABLE.flatMap((g) => g.items.map((i) => [i.id, i]))) as Record<PriceItemId, PriceItem>,
);

/** True when the id names a price item (safe for untrusted input such as '__proto__'). */
export function isPriceItemId(id: unknown): id is PriceItemId {
  return typeof id === 'string' && Object.hasOwn(PRICE_ITEMS, id);
}

/** The price item with this id, or undefined for an unknown id. */
export function priceItem(id: string): PriceItem | undefined {
  return isPriceItemId(id) ? PRICE_ITEMS[id] : undefined;
}
