// What a task's price depends on, read from its stored input: the same function prices the playground's preview and the
// server's charge.

import type { Feature } from './features';
import type { PriceInput } from './price-measures';

export type { PriceInput };

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
      return {
        characters: ((input.lines as Array<{ text: string }> | undefined) ?? []).reduce(
          (n, l) => n + characterCount(l.text),
          0,
        ),
      };
    default:
      return {
        count: typeof input.count === 'number' ? input.count : undefined,
        seconds: typeof input.seconds === 'number' ? input.seconds : undefined,
        resolution: typeof input.resolution === 'string' ? input.resolution : undefined,
        durationS: typeof input.durationS === 'number' ? input.durationS : undefined,
      };
  }
}
