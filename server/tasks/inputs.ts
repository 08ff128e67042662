// The stored, normalised input of the speech features (what engines receive); its price input is priceInputOf in src/lib/spec.
import { z } from 'zod';
import { TASK_LIMITS, VOICES } from '../../src/lib/spec';

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
