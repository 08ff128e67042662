// The stored, normalised input of each feature (what engines receive) and what its price depends on.
import { z } from 'zod';
import { TASK_LIMITS, VOICES, type Feature, type PriceInput } from '../../src/lib/spec';

const voiceIds = VOICES.map((v) => v.id) as [string, ...string[]];
const text = z.string().trim().min(1, 'must not be empty').max(TASK_LIMITS.maxTextChars, `must be at most ${TASK_LIMITS.maxTextChars} characters`);
/** eSpeak-NG's usable speaking rates, words per minute. */
const speed = z.coerce.number().int().min(80).max(450).optional();

export const speechInput = z.object({ text, voice: z.enum(voiceIds), speed });
export type SpeechInput = z.infer<typeof speechInput>;

export const dialogueInput = z.object({
  lines: z
    .array(z.object({ speaker: z.string().trim().min(1).max(40), text }))
    .min(1, 'must have at least one line')
    .max(TASK_LIMITS.maxDialogueLines, `must have at most ${TASK_LIMITS.maxDialogueLines} lines`),
  /** speaker → voice id; one voice per speaker. */
  voices: z.record(z.string(), z.enum(voiceIds)),
  speed,
});
export type DialogueInput = z.infer<typeof dialogueInput>;

/** Characters as people count them (code points), so a Chinese or emoji text is not billed double. */
export function characterCount(s: string): number {
  return [...s].length;
}

/** The measures the estimate is quoted on, from a stored input. */
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
