// The pricing page's table: a row per feature, named as the playground names it, with the SPEC.md §9 list price of each
// of its variants.
import {
  FEATURE_LABELS,
  PRICE_ITEMS,
  TEXT_TO_VIDEO_OPTIONS,
  type Feature,
  type PriceItem,
  type PriceItemId,
} from '../product-rules';
import { productBySlug } from './products';

/** One feature (or two charged alike, e.g. Lip Sync and its API call) and its priced variants, one table line each. */
export interface PriceRow {
  name: string;
  features: readonly Feature[];
  /** Variants by clip length and resolution (text-to-video), else one item. */
  items: readonly PriceItem[];
  /** No playground screen runs it; only the public API does. */
  apiOnly: boolean;
}

export interface PriceRowGroup {
  id: string;
  title: string;
  rows: readonly PriceRow[];
}

const CLIP_ITEMS: readonly PriceItemId[] = TEXT_TO_VIDEO_OPTIONS.map((o) => o.itemId);
const WAN_ITEMS: readonly PriceItemId[] = ['wan21-5s-480p', 'wan21-5s-720p'];

/** A playground product's title (its page's heading), with the choice on its screen that picks this feature. */
function screen(slug: string, choice?: string): string {
  const title = productBySlug(slug)!.title;
  return choice ? `${title} · ${choice}` : title;
}

const row = (name: string, features: readonly Feature[], items: readonly PriceItemId[], apiOnly = false): PriceRow => ({
  name,
  features,
  items: items.map((id) => PRICE_ITEMS[id]),
  apiOnly,
});
/** A feature only the API runs, named as the history and the dashboard name it. */
const api = (feature: Feature, items: readonly PriceItemId[]) => row(FEATURE_LABELS[feature], [feature], items, true);

export const PRICE_ROWS: readonly PriceRowGroup[] = [
  {
    id: 'speech',
    title: 'Speech & audio',
    rows: [
      row(screen('speech', 'Common'), ['tts-common'], ['tts-common']),
      row(screen('speech', 'Pro'), ['tts-pro'], ['tts-pro']),
      row(screen('speech', 'cloned voice'), ['tts-clone'], ['tts-common']),
      row(screen('voiceClone'), ['voice-clone'], ['voice-clone']),
      row(screen('dialogue'), ['dialogue'], ['tts-common']),
      api('stt-common', ['stt-common']),
      api('stt-pro', ['stt-pro']),
    ],
  },
  {
    id: 'video',
    title: 'Video',
    rows: [
      row(screen('textToVideo'), ['text-to-video'], CLIP_ITEMS),
      row(screen('imageToVideo'), ['image-to-video'], CLIP_ITEMS),
      row(screen('characterToVideo', 'a script'), ['character-to-video'], CLIP_ITEMS),
      row(screen('characterToVideo', 'your audio'), ['talking-image'], ['talking-image']),
      row(screen('lipSync'), ['talking-face', 'lipsync'], ['lip-sync']),
      row(screen('videoTranslate', 'lip sync'), ['video-translate-lip-sync'], ['video-translate-lip-sync']),
      row(screen('videoTranslate', 'voice only'), ['video-translate-voice-only'], ['video-translate-voice-only']),
      api('wan-text-to-video', WAN_ITEMS),
      api('wan-image-to-video', WAN_ITEMS),
      api('video-matting', ['video-matting']),
    ],
  },
  {
    id: 'image',
    title: 'Image',
    rows: [
      row(screen('alClothesChanger'), ['tryon-clothes'], ['ai-try-on']),
      api('image-generation', ['image-generation']),
      api('erase', ['erase']),
      api('face-swap', ['face-swap']),
      api('restore', ['restore']),
    ],
  },
  { id: 'other', title: 'Other', rows: [row('Available credits query', [], ['available-credits'], true)] },
];

/** What a variant line says before its price: "4 s · 720p"; empty for a single price. */
export function variantText(item: PriceItem): string {
  if (!item.resolution) return '';
  return item.durationS ? `${item.durationS} s · ${item.resolution}` : item.resolution;
}
