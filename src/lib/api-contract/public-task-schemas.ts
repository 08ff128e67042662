// Request bodies of the public API's tools (zod, DreamAPI field names, docs/public-api.md) and the map each tool
// validates with.
import { z } from 'zod';
import { IMAGE_ASPECT_RATIOS, TASK_LIMITS, type PublicTool } from '../product-rules';
import {
  clipFields,
  clipOffered,
  language,
  looseBoolean,
  mediaUrl,
  modelId,
  prompt,
  speechSettings,
  text,
} from './task-fields';
import { clothesBody, dialogueBody, translateBody, ttsCloneBody, voiceCloneBody } from './task-schemas';

const callbackUrl = { callbackUrl: z.string().max(2048).optional() };

export const dreamTts = z.object({
  audioId: z.string().trim().max(64).optional(),
  text,
  lan: language.optional(),
  ...speechSettings,
  ...callbackUrl,
});
// Where a tool takes the playground's body, it is that body with DreamAPI's callback (refinements kept).
export const dreamVoiceClone = voiceCloneBody.extend(callbackUrl);
export const dreamTtsClone = ttsCloneBody.extend(callbackUrl);
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
    modelId: modelId.optional(),
    audioUrl: mediaUrl,
    ...callbackUrl,
  })
  .refine((b) => Boolean(b.photoUrl || b.modelId), { message: 'give photoUrl or modelId', path: ['photoUrl'] });
export const dreamVideoTranslate = translateBody.extend({ enableLipSync: looseBoolean.default(true), ...callbackUrl });
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
export const dreamImg2Video = z
  .object({ prompt, imgUrl: mediaUrl, ...clipFields, ...callbackUrl })
  .superRefine(clipOffered);
export const dreamText2Video = z
  .object({ prompt, style: z.enum(['general', 'anime']).default('general'), ...clipFields, ...callbackUrl })
  .superRefine(clipOffered);
/** A sample model (modelId) or a portrait (imgUrl) acting out the prompt. */
export const dreamCharacter2Video = z
  .object({
    prompt,
    modelId: modelId.optional(),
    imgUrl: mediaUrl.optional(),
    ...clipFields,
    ...callbackUrl,
  })
  .superRefine((b, ctx) => {
    clipOffered(b, ctx);
    if (!b.imgUrl && !b.modelId) ctx.addIssue({ code: 'custom', path: ['modelId'], message: 'give modelId or imgUrl' });
  });
/** A dialogue in the playground's shape: lines in order and a voice per speaker. */
export const dreamDialogue = dialogueBody.safeExtend(callbackUrl);
export const dreamTryon = clothesBody.safeExtend(callbackUrl);
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
