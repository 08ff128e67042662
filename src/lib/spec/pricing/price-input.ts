// What a task's price depends on, read from its stored input: the same function prices the playground's preview and the server's charge.

import type { Feature } from './features';

/** What a task's price depends on, as known at submit (estimate) or after the run (settle). */
export interface PriceInput {
  /** Characters of text to speak (speech features). */
  characters?: number;
  /** Seconds of media: the input's length at submit, the output's real length when settling. */
  seconds?: number;
  /** Output resolution for video features, e.g. '720p'. */
  resolution?: string;
  /** Clip length in seconds for fixed-length video features. */
  durationS?: number;
  /** Images asked for (image generation is charged per image). */
  count?: number;
}

/** Characters as billed: code points of the trimmed text, so an emoji or a Chinese text is not billed double. */
export function characterCount(text: string): number {
  return [...text.trim()].length;
}

/** The measures the estimate is quoted on, from a task's input (the normalised input the server stores). */
export function priceInputOf(feature: Feature, input: Record<string, unknown>): PriceInput {
  switch (feature) {
    case 'tts-common':
    case 'tts-pro':
    case 'tts-clone':
      return { characters: characterCount(String(input.text ?? '')) };
    case 'dialogue':
      return { characters: ((input.lines as Array<{ text: string }> | undefined) ?? []).reduce((n, l) => n + characterCount(l.text), 0) };
    default:
      return {
        count: typeof input.count === 'number' ? input.count : undefined,
        seconds: typeof input.seconds === 'number' ? input.seconds : undefined,
        resolution: typeof input.resolution === 'string' ? input.resolution : undefined,
        durationS: typeof input.durationS === 'number' ? input.durationS : undefined,
      };
  }
}
