// Every kind of task the platform runs, and the SPEC.md §9 price item and measures each one is charged on.

import type { PriceInput } from './price-measures';
import type { PriceItemId } from './prices';
import type { QuoteParams } from './quote';

/** Every kind of task the platform runs; playground and public API calls both map onto these. */
export const FEATURES = [
  'tts-common',
  'tts-pro',
  'tts-clone',
  'voice-clone',
  'dialogue',
  'talking-face',
  'lipsync',
  'talking-image',
  'video-translate-lip-sync',
  'video-translate-voice-only',
  'text-to-video',
  'image-to-video',
  'character-to-video',
  'wan-text-to-video',
  'wan-image-to-video',
  'tryon-clothes',
  'image-generation',
  'erase',
  'face-swap',
  'restore',
  'video-matting',
  'stt-common',
  'stt-pro',
] as const;
export type Feature = (typeof FEATURES)[number];

export function isFeature(value: unknown): value is Feature {
  return typeof value === 'string' && (FEATURES as readonly string[]).includes(value);
}

/** The SPEC.md §9 item a feature is charged under, and the quote() measures for it. */
export function featurePrice(feature: Feature, p: PriceInput): { itemId: PriceItemId; params: QuoteParams } {
  const seconds = { seconds: p.seconds ?? 0 };
  switch (feature) {
    // A dialogue is speech of the same kind as TTS Common: the characters of every line are billed together.
    case 'tts-common':
    case 'tts-clone':
    case 'dialogue':
      return { itemId: 'tts-common', params: { characters: p.characters ?? 0 } };
    case 'tts-pro':
      return { itemId: 'tts-pro', params: { characters: p.characters ?? 0 } };
    case 'voice-clone':
      return { itemId: 'voice-clone', params: {} };
    case 'talking-face':
    case 'lipsync':
      return { itemId: 'lip-sync', params: seconds };
    case 'talking-image':
      return { itemId: 'talking-image', params: seconds };
    case 'video-translate-lip-sync':
      return { itemId: 'video-translate-lip-sync', params: seconds };
    case 'video-translate-voice-only':
      return { itemId: 'video-translate-voice-only', params: seconds };
    case 'text-to-video':
    case 'image-to-video':
    case 'character-to-video':
      return { itemId: textToVideoItem(p.durationS ?? 4, p.resolution ?? '720p'), params: {} };
    case 'wan-text-to-video':
    case 'wan-image-to-video':
      return { itemId: p.resolution === '720p' ? 'wan21-5s-720p' : 'wan21-5s-480p', params: {} };
    case 'tryon-clothes':
      return { itemId: 'ai-try-on', params: {} };
    case 'image-generation':
      return { itemId: 'image-generation', params: { count: p.count ?? 1 } };
    case 'erase':
      return { itemId: 'erase', params: {} };
    case 'face-swap':
      return { itemId: 'face-swap', params: {} };
    case 'restore':
      return { itemId: 'restore', params: {} };
    case 'video-matting':
      return { itemId: 'video-matting', params: seconds };
    // Speech to text is charged per started minute of the audio (SPEC.md §9 "STT 1 per minute (Pro 2)").
    case 'stt-common':
      return { itemId: 'stt-common', params: { minutes: (p.seconds ?? 0) / 60 } };
    case 'stt-pro':
      return { itemId: 'stt-pro', params: { minutes: (p.seconds ?? 0) / 60 } };
  }
}

/** The SPEC.md §9 text-to-video rows: 4 s at 512p, 720p or 1080p, and 8 s at 720p. */
export const TEXT_TO_VIDEO_OPTIONS = [
  { durationS: 4, resolution: '512p', itemId: 'text-to-video-4s-512p' },
  { durationS: 4, resolution: '720p', itemId: 'text-to-video-4s-720p' },
  { durationS: 8, resolution: '720p', itemId: 'text-to-video-8s-720p' },
  { durationS: 4, resolution: '1080p', itemId: 'text-to-video-4s-1080p' },
] as const satisfies ReadonlyArray<{ durationS: number; resolution: string; itemId: PriceItemId }>;

function textToVideoItem(durationS: number, resolution: string): PriceItemId {
  const row = TEXT_TO_VIDEO_OPTIONS.find((o) => o.durationS === durationS && o.resolution === resolution);
  return row?.itemId ?? 'text-to-video-4s-720p';
}

/** Features whose charge is settled on the real output length (SPEC.md §9 "per second" rows). */
export const PER_SECOND_FEATURES: readonly Feature[] = [
  'talking-face',
  'lipsync',
  'talking-image',
  'video-translate-lip-sync',
  'video-translate-voice-only',
  'video-matting',
];

/**
 * Features charged on the length of their input audio: estimated at submit, settled on the audio the engine read
 * (speech to text).
 */
export const INPUT_LENGTH_FEATURES: readonly Feature[] = ['stt-common', 'stt-pro'];
