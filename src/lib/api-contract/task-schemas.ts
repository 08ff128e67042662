// Request bodies of the playground's task calls (zod, JSON with the signed-in token), and the id, list and upload
// bodies the public API shares.
import { z } from 'zod';
import { FEATURES, HISTORY, TASK_LIMITS, UPLOAD_SCENES } from '../product-rules';
import {
  clipFields,
  clipOffered,
  dialogueShape,
  dialogueSpeakers,
  language,
  looseBoolean,
  mediaUrl,
  modelId,
  prompt,
  speechSettings,
  taskId,
  text,
  voiceId,
} from './task-fields';

export { mediaUrl, taskId };

export const ttsBody = z.object({
  text,
  voiceId,
  quality: z.enum(['common', 'pro']).default('common'),
  ...speechSettings,
});

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

export const animateBody = z
  .object({
    type: z.enum(['image', 'text', 'character']),
    prompt,
    imageUrl: mediaUrl.optional(),
    modelId: modelId.optional(),
    ...clipFields,
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
    modelId: modelId.optional(),
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
  rotate: looseBoolean.default(false),
});
export const uploadSceneBody = z.object({
  scene: z.enum(Object.keys(UPLOAD_SCENES) as [string, ...string[]]).default('any'),
});
