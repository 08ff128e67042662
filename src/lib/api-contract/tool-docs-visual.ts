// The documentation of the video and image tools of POST /api/async/<tool>: summary, example, fields.
import {
  IMAGE_ASPECT_RATIOS,
  SAMPLE_MODELS,
  TASK_LIMITS,
  TEXT_TO_VIDEO_OPTIONS,
  VIDEO_ASPECT_RATIOS,
  type PublicTool,
} from '../product-rules';
import type { ToolDoc } from './operation-shape';
import { engineDependent, promptField, SEED_FIELD } from './tool-field-docs';

/** The clip fields text2video, img2video and character2video share with the playground. */
const clipFields = {
  resolution: `${TEXT_TO_VIDEO_OPTIONS.map((o) => o.resolution)
    .filter((r, i, all) => all.indexOf(r) === i)
    .join(', ')} (default 720p); with duration, one of ${TEXT_TO_VIDEO_OPTIONS.map(
    (o) => `${o.durationS}s ` + `${o.resolution}`,
  ).join(', ')}, each priced as its text-to-video row`,
  duration: 'Seconds, 4 (default) or 8',
  aspectRatio: engineDependent(VIDEO_ASPECT_RATIOS.join(', ')),
  seed: engineDependent(SEED_FIELD),
  negativePrompt: engineDependent('What to avoid'),
};
const wanResolution = '480p (default) or 720p';

export const VISUAL_TOOL_DOCS = {
  'video_translate/2.0': {
    id: 'videoTranslate',
    tag: 'Video',
    summary: 'Translate a video',
    description: 'Dubs a video into another language, with lip-sync unless enableLipSync is false.',
    example: { videoUrl: 'https://example.com/talk.mp4', targetLanguage: 'es' },
    fields: {
      videoUrl: 'The video to translate',
      sourceLanguage: 'Its spoken language; detected when missing',
      targetLanguage: 'The language to dub into',
      enableLipSync: 'Re-time the lips too (default true); false dubs the voice only',
    },
  },
  'wan/text_to_video/2.1': {
    id: 'wanTextToVideo',
    tag: 'Video',
    summary: 'Wan2.1 text to video',
    description: 'A 5-second clip from a prompt with Wan2.1, at 480p or 720p.',
    example: { prompt: 'A paper boat drifting down a rainy street', resolution: '480p' },
    fields: {
      prompt: promptField('What to show'),
      negativePrompt: 'What to avoid',
      resolution: wanResolution,
      seed: SEED_FIELD,
    },
  },
  'wan/image_to_video/2.1': {
    id: 'wanImageToVideo',
    tag: 'Video',
    summary: 'Wan2.1 image to video',
    description: 'A 5-second clip that starts from an image, with Wan2.1.',
    example: { image: 'https://example.com/still.png', prompt: 'The camera slowly pans right', resolution: '480p' },
    fields: {
      image: 'The first frame',
      prompt: promptField('How it moves'),
      resolution: wanResolution,
    },
  },
  img2video: {
    id: 'imageToVideo',
    tag: 'Video',
    summary: 'Image to video',
    description: 'A clip that brings an image to life: 4 seconds at 720p unless duration and resolution say otherwise.',
    example: { prompt: 'Leaves sway in the wind', imgUrl: 'https://example.com/still.png' },
    fields: {
      prompt: promptField('How it moves'),
      imgUrl: 'The image',
      ...clipFields,
    },
  },
  text2video: {
    id: 'textToVideo',
    tag: 'Video',
    summary: 'Text to video',
    description:
      'A clip from a prompt, in a general or anime style: 4 seconds at 720p unless duration and resolution say otherwise.',
    example: { prompt: 'A lighthouse at dawn, waves rolling in', style: 'general' },
    fields: {
      prompt: promptField('What to show'),
      style: 'general (default) or anime',
      ...clipFields,
    },
  },
  character2video: {
    id: 'characterToVideo',
    tag: 'Video',
    summary: 'Character to video',
    description:
      'A sample model (modelId) or your portrait (imgUrl) acting out a script: 4 seconds at 720p unless duration and resolution say otherwise.',
    example: { prompt: 'Waves and says hello to the camera', modelId: 'model-emma' },
    fields: {
      prompt: promptField('What the character says or does'),
      modelId: `A sample model: ${SAMPLE_MODELS.map((m) => m.id).join(', ')}`,
      imgUrl: 'A portrait to use instead of a sample model',
      ...clipFields,
    },
  },
  tryon_clothes: {
    id: 'tryonClothes',
    tag: 'Image',
    summary: 'AI try-on',
    description: 'Dresses a model photo in garments: an upper and/or lower garment, or a one-piece.',
    example: { modelImageUrl: 'https://example.com/model.png', upperUrl: 'https://example.com/shirt.png' },
    fields: {
      modelImageUrl: 'A full-body photo of the model',
      upperUrl: 'An upper garment',
      lowerUrl: 'A lower garment',
      onePieceUrl: 'A one-piece garment (give at least one garment)',
    },
  },
  image_generation: {
    id: 'imageGeneration',
    tag: 'Image',
    summary: 'Generate images',
    description: `Makes 1 to ${TASK_LIMITS.maxImagesPerTask} images from a prompt.`,
    example: { prompt: 'A lighthouse at dusk, watercolour', count: 2, aspectRatio: '16:9' },
    fields: {
      prompt: promptField('What to draw'),
      count: `How many images, 1 to ${TASK_LIMITS.maxImagesPerTask} (default 1)`,
      aspectRatio: `${IMAGE_ASPECT_RATIOS.join(', ')} (default 1:1)`,
      seed: SEED_FIELD,
    },
  },
  erase: {
    id: 'erase',
    tag: 'Image',
    summary: 'Erase objects',
    description: 'Removes what a mask marks from an image and fills the gap.',
    example: { imageUrl: 'https://example.com/photo.png', maskUrl: 'https://example.com/mask.png' },
    fields: {
      imageUrl: 'The image to clean up',
      maskUrl: 'A black-and-white mask of the same size; white marks what to remove',
    },
  },
  face_swap: {
    id: 'faceSwap',
    tag: 'Image',
    summary: 'Face swap',
    description: 'Puts the face of one photo into another.',
    example: { imageUrl: 'https://example.com/scene.png', faceImageUrl: 'https://example.com/face.png' },
    fields: { imageUrl: 'The picture to change', faceImageUrl: 'A photo of the face to put in' },
  },
  restore: {
    id: 'restore',
    tag: 'Image',
    summary: 'Restore a photo',
    description: 'Sharpens and repairs faces in an old or blurry photo.',
    example: { imageUrl: 'https://example.com/old-photo.jpg' },
    fields: { imageUrl: 'The photo to restore' },
  },
  video_matting: {
    id: 'videoMatting',
    tag: 'Video',
    summary: 'Video matting',
    description: 'Removes the background of a video behind its people.',
    example: { videoUrl: 'https://example.com/dance.mp4' },
    fields: { videoUrl: 'The video' },
  },
} satisfies Partial<Record<PublicTool, ToolDoc>>;
