// Request bodies of the playground and public task calls (zod), with the limits of src/lib/product-rules/limits.ts.
import { z } from 'zod';
import {
  FEATURES,
  HISTORY,
  IMAGE_ASPECT_RATIOS,
  RUN_OPTIONS,
  SAMPLE_MODELS,
  TASK_LIMITS,
  TEXT_TO_VIDEO_OPTIONS,
  UPLOAD_SCENES,
  VIDEO_ASPECT_RATIOS,
  VOICES,
  type PublicTool,
} from '../product-rules';

const voiceIds = VOICES.map((v) => v.id) as [string, ...string[]];
const text = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(TASK_LIMITS.maxTextChars, `must be at most ${TASK_LIMITS.maxTextChars} characters`);
export const mediaUrl = z
  .url('must be an http(s) URL')
  .max(2048)
  .refine((u) => /^https?:/i.test(u), 'must be an http(s) URL');
const prompt = z
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
const language = z.string().trim().min(2).max(20);
export const taskId = z.string().trim().min(1, 'is required').max(64);

// ── Playground (JSON, session token) ──

export const ttsBody = z.object({
  text,
  voiceId: z.enum(voiceIds, { message: `must be one of ${voiceIds.join(', ')}` }),
  quality: z.enum(['common', 'pro']).default('common'),
  speed,
  pitch,
});

const dialogueShape = {
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
  voices: z.record(
    z.string().trim().min(1).max(TASK_LIMITS.maxSpeakerNameChars),
    z.enum(voiceIds, { message: `must be one of ${voiceIds.join(', ')}` }),
  ),
  speed,
  pitch,
};
function dialogueSpeakers(
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
export const dialogueBody = z.object(dialogueShape).superRefine(dialogueSpeakers);

export const voiceCloneBody = z.object({ voiceUrl: mediaUrl });
export const ttsCloneBody = z.object({ cloneId: z.string().trim().min(1).max(100), text, lan: language.optional() });

export const clothesBody = z
  .object({
    modelImageUrl: mediaUrl,
    upperUrl: mediaUrl.optional(),
    lowerUrl: mediaUrl.optional(),
    onePieceUrl: mediaUrl.optional(),
  })
  .refine((b) => Boolean(b.upperUrl || b.lowerUrl || b.onePieceUrl), {
    message: 'give upperUrl, lowerUrl or onePieceUrl',
    path: ['upperUrl'],
  });

const modelIds = SAMPLE_MODELS.map((m) => m.id) as [string, ...string[]];
const resolutions = [...new Set(TEXT_TO_VIDEO_OPTIONS.map((o) => o.resolution))] as [string, ...string[]];
const duration = z.coerce
  .number()
  .int()
  .refine((d) => d === 4 || d === 8, 'must be 4 or 8')
  .default(4);

/** A clip's length and resolution must be one of the SPEC.md §9 text-to-video rows. */
function clipOffered(b: { duration: number; resolution: string }, ctx: z.RefinementCtx) {
  if (!TEXT_TO_VIDEO_OPTIONS.some((o) => o.durationS === b.duration && o.resolution === b.resolution)) {
    ctx.addIssue({
      code: 'custom',
      path: ['resolution'],
      message: `offered: ${TEXT_TO_VIDEO_OPTIONS.map((o) => `${o.durationS}s ${o.resolution}`).join(', ')}`,
    });
  }
}

export const animateBody = z
  .object({
    type: z.enum(['image', 'text', 'character']),
    prompt,
    imageUrl: mediaUrl.optional(),
    modelId: z.enum(modelIds).optional(),
    resolution: z.enum(resolutions).default('720p'),
    duration,
    ...videoSettings,
  })
  .superRefine((b, ctx) => {
    clipOffered(b, ctx);
    if (b.type === 'image' && !b.imageUrl)
      ctx.addIssue({ code: 'custom', path: ['imageUrl'], message: 'is required for type image' });
    if (b.type === 'character' && !b.imageUrl && !b.modelId)
      ctx.addIssue({ code: 'custom', path: ['modelId'], message: 'give modelId or imageUrl for type character' });
  });

export const translateBody = z.object({
  videoUrl: mediaUrl,
  sourceLanguage: language.optional(),
  targetLanguage: language,
});

export const talkingFaceBody = z
  .object({
    audioUrl: mediaUrl,
    imageUrl: mediaUrl.optional(),
    videoUrl: mediaUrl.optional(),
    modelId: z.enum(modelIds).optional(),
  })
  .refine((b) => Boolean(b.imageUrl || b.videoUrl || b.modelId), {
    message: 'give imageUrl, videoUrl or modelId',
    path: ['imageUrl'],
  });

export const taskIdBody = z.object({ taskId });
export const listBody = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(TASK_LIMITS.maxPageSize).default(TASK_LIMITS.defaultPageSize),
  feature: z.enum(FEATURES).optional(),
  /** Several features at once (a screen's history); joined with `feature`. */
  features: z.array(z.enum(FEATURES)).max(FEATURES.length).optional(),
  /** Words of the prompt, text, script or voice, case-insensitive. */
  q: z.string().trim().max(HISTORY.searchMaxLength).optional(),
});
export const rotateBody = z.object({
  rotate: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(false),
});
export const uploadSceneBody = z.object({
  scene: z.enum(Object.keys(UPLOAD_SCENES) as [string, ...string[]]).default('any'),
});

// ── Public API (DreamAPI field names, docs/public-api.md) ──

const callbackUrl = { callbackUrl: z.string().max(2048).optional() };

export const dreamTts = z.object({
  audioId: z.string().trim().max(64).optional(),
  text,
  lan: language.optional(),
  speed,
  pitch,
  ...callbackUrl,
});
export const dreamVoiceClone = z.object({ voiceUrl: mediaUrl, ...callbackUrl });
export const dreamTtsClone = z.object({
  cloneId: z.string().trim().min(1).max(100),
  text,
  lan: language.optional(),
  ...callbackUrl,
});
const videoParams = z
  .object({
    video_width: z.coerce
      .number()
      .int()
      .min(0)
      .max(4096)
      .optional()
      .describe("Width of the result in pixels; 0 keeps the source's"),
    video_height: z.coerce
      .number()
      .int()
      .min(0)
      .max(4096)
      .optional()
      .describe("Height of the result in pixels; 0 keeps the source's"),
    video_enhance: z.coerce
      .number()
      .int()
      .min(0)
      .max(1)
      .optional()
      .describe('1 asks the engine to enhance the result, 0 does not (only where the serving engine supports it)'),
    fps: z
      .union([z.literal('original'), z.coerce.number().int().min(1).max(60)])
      .optional()
      .describe(
        'Frames per second of the result, 1 to 60, or "original" for the source\'s (only where the serving engine supports it)',
      ),
  })
  .optional();
export const dreamLipsync = z.object({
  srcVideoUrl: mediaUrl,
  audioUrl: mediaUrl,
  vocalAudioUrl: mediaUrl.optional(),
  videoParams,
  ...callbackUrl,
});
/** A portrait photo, or (as the playground offers) a sample model drawn by the preview engine. */
export const dreamTalkingImage = z
  .object({
    photoUrl: mediaUrl.optional(),
    modelId: z.enum(modelIds, { message: `must be one of ${modelIds.join(', ')}` }).optional(),
    audioUrl: mediaUrl,
    ...callbackUrl,
  })
  .refine((b) => Boolean(b.photoUrl || b.modelId), { message: 'give photoUrl or modelId', path: ['photoUrl'] });
export const dreamVideoTranslate = z.object({
  videoUrl: mediaUrl,
  sourceLanguage: language.optional(),
  targetLanguage: language,
  enableLipSync: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(true),
  ...callbackUrl,
});
export const dreamWanText = z.object({
  prompt,
  negativePrompt: z.string().max(TASK_LIMITS.maxPromptChars).optional(),
  resolution: z.enum(['480p', '720p']).default('480p'),
  seed: z.coerce.number().int().optional(),
  ...callbackUrl,
});
export const dreamWanImage = z.object({
  image: mediaUrl,
  prompt,
  resolution: z.enum(['480p', '720p']).default('480p'),
  ...callbackUrl,
});
/**
 * The clip fields the playground offers too: a §9 length and resolution (4 s 720p when left out) and the advanced
 * settings.
 */
const clip = { resolution: z.enum(resolutions).default('720p'), duration, ...videoSettings };
export const dreamImg2Video = z.object({ prompt, imgUrl: mediaUrl, ...clip, ...callbackUrl }).superRefine(clipOffered);
export const dreamText2Video = z
  .object({ prompt, style: z.enum(['general', 'anime']).default('general'), ...clip, ...callbackUrl })
  .superRefine(clipOffered);
/** A sample model (modelId) or a portrait (imgUrl) acting out the prompt. */
export const dreamCharacter2Video = z
  .object({
    prompt,
    modelId: z.enum(modelIds, { message: `must be one of ${modelIds.join(', ')}` }).optional(),
    imgUrl: mediaUrl.optional(),
    ...clip,
    ...callbackUrl,
  })
  .superRefine((b, ctx) => {
    clipOffered(b, ctx);
    if (!b.imgUrl && !b.modelId) ctx.addIssue({ code: 'custom', path: ['modelId'], message: 'give modelId or imgUrl' });
  });
/** A dialogue in the playground's shape: lines in order and a voice per speaker. */
export const dreamDialogue = z.object({ ...dialogueShape, ...callbackUrl }).superRefine(dialogueSpeakers);
export const dreamTryon = z
  .object({
    modelImageUrl: mediaUrl,
    upperUrl: mediaUrl.optional(),
    lowerUrl: mediaUrl.optional(),
    onePieceUrl: mediaUrl.optional(),
    ...callbackUrl,
  })
  .refine((b) => Boolean(b.upperUrl || b.lowerUrl || b.onePieceUrl), {
    message: 'give upperUrl, lowerUrl or onePieceUrl',
    path: ['upperUrl'],
  });
export const dreamImageGeneration = z.object({
  prompt,
  count: z.coerce
    .number()
    .int()
    .min(1, `must be 1 to ${TASK_LIMITS.maxImagesPerTask}`)
    .max(TASK_LIMITS.maxImagesPerTask, `must be 1 to ${TASK_LIMITS.maxImagesPerTask}`)
    .default(1),
  aspectRatio: z
    .enum(IMAGE_ASPECT_RATIOS, { message: `must be one of ${IMAGE_ASPECT_RATIOS.join(', ')}` })
    .default('1:1'),
  seed: z.coerce.number().int().optional(),
  ...callbackUrl,
});
/** maskUrl: a black-and-white image of the same size; white marks what to remove. */
export const dreamErase = z.object({ imageUrl: mediaUrl, maskUrl: mediaUrl, ...callbackUrl });
/** imageUrl is the picture to change; faceImageUrl holds the face to put into it. */
export const dreamFaceSwap = z.object({ imageUrl: mediaUrl, faceImageUrl: mediaUrl, ...callbackUrl });
export const dreamRestore = z.object({ imageUrl: mediaUrl, ...callbackUrl });
export const dreamVideoMatting = z.object({ videoUrl: mediaUrl, ...callbackUrl });
/** DreamAPI's do_stt_pro takes `lan` as a list of locales; one language (a string) is accepted too. */
export const dreamStt = z.object({
  audioUrl: mediaUrl,
  lan: z.union([language, z.array(language).min(1).max(10)]).optional(),
  ...callbackUrl,
});
export const reqIdBody = z.object({ reqId: z.string().trim().min(1, 'is required').max(100) });

/** The body each public tool validates with (public-api.ts toolInput); the OpenAPI document reads the same map. */
export const PUBLIC_TOOL_BODIES = {
  do_tts_common: dreamTts,
  do_tts_pro: dreamTts,
  voice_clone: dreamVoiceClone,
  do_tts_clone: dreamTtsClone,
  talking_face: dreamLipsync,
  lipsync: dreamLipsync,
  talking_image: dreamTalkingImage,
  'video_translate/2.0': dreamVideoTranslate,
  'wan/text_to_video/2.1': dreamWanText,
  'wan/image_to_video/2.1': dreamWanImage,
  img2video: dreamImg2Video,
  text2video: dreamText2Video,
  character2video: dreamCharacter2Video,
  dialogue: dreamDialogue,
  tryon_clothes: dreamTryon,
  image_generation: dreamImageGeneration,
  erase: dreamErase,
  face_swap: dreamFaceSwap,
  restore: dreamRestore,
  video_matting: dreamVideoMatting,
  do_stt: dreamStt,
  do_stt_pro: dreamStt,
} as const satisfies Record<PublicTool, z.ZodType>;
