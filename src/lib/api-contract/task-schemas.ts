// Request bodies of the playground's task calls (zod, JSON with the signed-in token); the public API's tools extend
// several of them.
import { z } from 'zod';
import {
  clipFields,
  clipOffered,
  dialogueShape,
  dialogueSpeakers,
  language,
  mediaUrl,
  modelId,
  prompt,
  speechSettings,
  text,
  voiceId,
} from './task-fields';

export { mediaUrl };

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
