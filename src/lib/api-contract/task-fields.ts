// The fields task bodies share (zod), with the limits of src/lib/product-rules/limits.ts: text, media URLs, voices,
// dialogue lines, clip settings.
import { z } from 'zod';
import {
  RUN_OPTIONS,
  SAMPLE_MODELS,
  TASK_LIMITS,
  TEXT_TO_VIDEO_OPTIONS,
  VIDEO_ASPECT_RATIOS,
  VOICES,
} from '../product-rules';

const voiceIds = VOICES.map((v) => v.id) as [string, ...string[]];
export const voiceId = z.enum(voiceIds, { message: `must be one of ${voiceIds.join(', ')}` });
/** A form's or a query's true/false: a JSON boolean, or the text "true" / "false". */
export const looseBoolean = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
export const text = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(TASK_LIMITS.maxTextChars, `must be at most ${TASK_LIMITS.maxTextChars} characters`);
export const mediaUrl = z
  .url('must be an http(s) URL')
  .max(2048)
  .refine((u) => /^https?:/i.test(u), 'must be an http(s) URL');
export const prompt = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(TASK_LIMITS.maxPromptChars, `must be at most ${TASK_LIMITS.maxPromptChars} characters`);
const { speed: SPEED, pitch: PITCH, seed: SEED, negativePrompt: NEGATIVE } = RUN_OPTIONS;
const speedRange = `must be ${SPEED.min} to ${SPEED.max} words per minute`;
const speed = z.coerce.number().int().min(SPEED.min, speedRange).max(SPEED.max, speedRange).optional();
// Advanced settings (src/lib/product-rules/run-options.ts); the route refuses one the serving engine does not honour.
const pitch = z.coerce
  .number()
  .int()
  .min(PITCH.min, `must be ${PITCH.min} to ${PITCH.max}`)
  .max(PITCH.max, `must be ${PITCH.min} to ${PITCH.max}`)
  .optional();
/** The voice settings of every speech body: words per minute and pitch. */
export const speechSettings = { speed, pitch };
const videoSettings = {
  aspectRatio: z.enum(VIDEO_ASPECT_RATIOS, { message: `must be one of ${VIDEO_ASPECT_RATIOS.join(', ')}` }).optional(),
  seed: z.coerce
    .number()
    .int()
    .min(SEED.min, `must be ${SEED.min} to ${SEED.max}`)
    .max(SEED.max, `must be ${SEED.min} to ${SEED.max}`)
    .optional(),
  negativePrompt: z
    .string()
    .trim()
    .max(NEGATIVE.maxChars, `must be at most ${NEGATIVE.maxChars} characters`)
    .optional(),
};
export const language = z.string().trim().min(2).max(20);
export const taskId = z.string().trim().min(1, 'is required').max(64);

export const dialogueShape = {
  lines: z
    .array(
      z.object({
        speaker: z
          .string()
          .trim()
          .min(1)
          .max(TASK_LIMITS.maxSpeakerNameChars)
          .describe('Who says the line: a name of voices'),
        text: text.describe('What the speaker says'),
      }),
    )
    .min(1, 'must have at least one line')
    .max(TASK_LIMITS.maxDialogueLines),
  voices: z.record(z.string().trim().min(1).max(TASK_LIMITS.maxSpeakerNameChars), voiceId),
  ...speechSettings,
};
export function dialogueSpeakers(
  b: { lines: Array<{ speaker: string }>; voices: Record<string, string> },
  ctx: z.RefinementCtx,
) {
  const speakers = new Set(b.lines.map((l) => l.speaker));
  if (speakers.size > TASK_LIMITS.maxDialogueSpeakers)
    ctx.addIssue({
      code: 'custom',
      path: ['lines'],
      message: `must have at most ${TASK_LIMITS.maxDialogueSpeakers} speakers`,
    });
  for (const s of speakers)
    if (!b.voices[s]) ctx.addIssue({ code: 'custom', path: ['voices', s], message: `speaker "${s}" needs a voice` });
}

const modelIds = SAMPLE_MODELS.map((m) => m.id) as [string, ...string[]];
export const modelId = z.enum(modelIds, { message: `must be one of ${modelIds.join(', ')}` });
type ClipResolution = (typeof TEXT_TO_VIDEO_OPTIONS)[number]['resolution'];
const resolutions = [...new Set(TEXT_TO_VIDEO_OPTIONS.map((o) => o.resolution))] as [
  ClipResolution,
  ...ClipResolution[],
];
const duration = z.coerce
  .number()
  .int()
  .refine((d) => d === 4 || d === 8, 'must be 4 or 8')
  .default(4);
/**
 * A clip's fields, the same in the playground and the public API: a §9 length and resolution (4 s 720p when left out;
 * clipOffered checks the pair) and the advanced settings.
 */
export const clipFields = { resolution: z.enum(resolutions).default('720p'), duration, ...videoSettings };

/** A clip's length and resolution must be one of the SPEC.md §9 text-to-video rows. */
export function clipOffered(b: { duration: number; resolution: string }, ctx: z.RefinementCtx) {
  if (!TEXT_TO_VIDEO_OPTIONS.some((o) => o.durationS === b.duration && o.resolution === b.resolution)) {
    ctx.addIssue({
      code: 'custom',
      path: ['resolution'],
      message: `offered: ${TEXT_TO_VIDEO_OPTIONS.map((o) => `${o.durationS}s ${o.resolution}`).join(', ')}`,
    });
  }
}
