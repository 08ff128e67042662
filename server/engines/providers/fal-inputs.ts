// Our stored task input → each fal model's input fields (FAL_MODELS names the page each comes from), with our
// media made reachable by fal.
import { FAL_IMAGE_SIZES, FAL_MATTING_BACKGROUND, FAL_MODELS, FAL_WAN } from '../../../src/lib/product-rules';
import type { Feature, MediaKind } from '../../../src/lib/product-rules';
import { EngineInputError, EngineUnsupportedError } from '../types';
import type { FalJob } from './fal-queue';

export const PROVIDER = 'fal.ai';

export type Input = Record<string, unknown>;
/** Makes an input URL reachable by fal (uploading our private media) after checking it is one of `kinds`. */
export type Upload = (url: string, kinds: readonly MediaKind[]) => Promise<string>;

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** Our stored inputs → each model's input fields. */
export const JOBS: Partial<Record<Feature, (i: Input, up: Upload) => Promise<FalJob>>> = {
  'text-to-video': async (i) => ({
    model: FAL_MODELS.textToVideo,
    body: {
      prompt: i.prompt,
      resolution: resolution(i),
      ...(str(i.negativePrompt) ? { negative_prompt: i.negativePrompt } : {}),
      ...(typeof i.seed === 'number' ? { seed: i.seed } : {}),
    },
  }),
  'image-to-video': async (i, up) => {
    const image = imageOf(i);
    if (!image && str(i.modelId))
      throw new EngineUnsupportedError(
        `${PROVIDER} cannot animate a sample model (only the preview engine draws them); give an image`,
      );
    if (!image) throw new EngineInputError(`${PROVIDER} needs an image to animate`);
    return {
      model: FAL_MODELS.imageToVideo,
      body: { prompt: i.prompt, image_url: await up(image, ['image']), resolution: resolution(i) },
    };
  },
  lipsync: async (i, up) => {
    const video = str(i.srcVideoUrl) ?? str(i.videoUrl);
    if (!video || !str(i.audioUrl)) throw new EngineInputError('lip sync needs a video and an audio');
    return {
      model: FAL_MODELS.lipsync,
      body: { video_url: await up(video, ['video']), audio_url: await up(str(i.audioUrl)!, ['audio']) },
    };
  },
  'talking-image': async (i, up) => {
    const image = imageOf(i);
    if (!image && str(i.modelId))
      throw new EngineUnsupportedError(
        `${PROVIDER} cannot animate a sample model (only the preview engine draws them); give a photo`,
      );
    if (!image || !str(i.audioUrl)) throw new EngineInputError('talking image needs a photo and an audio');
    return {
      model: FAL_MODELS.talkingImage,
      body: { source_image_url: await up(image, ['image']), driven_audio_url: await up(str(i.audioUrl)!, ['audio']) },
    };
  },
  'tryon-clothes': async (i, up) => {
    const garment = str(i.onePieceUrl) ?? str(i.upperUrl) ?? str(i.lowerUrl);
    if (!str(i.modelImageUrl) || !garment) throw new EngineInputError('try-on needs a model image and a garment');
    return {
      model: FAL_MODELS.tryOn,
      body: {
        human_image_url: await up(str(i.modelImageUrl)!, ['image']),
        garment_image_url: await up(garment, ['image']),
      },
    };
  },
  'image-generation': async (i) => ({
    model: FAL_MODELS.imageGeneration,
    body: {
      prompt: i.prompt,
      num_images: typeof i.count === 'number' ? i.count : 1,
      image_size:
        FAL_IMAGE_SIZES[(str(i.aspectRatio) ?? '1:1') as keyof typeof FAL_IMAGE_SIZES] ?? FAL_IMAGE_SIZES['1:1'],
      ...(typeof i.seed === 'number' ? { seed: i.seed } : {}),
    },
  }),
  erase: async (i, up) => {
    if (!str(i.imageUrl) || !str(i.maskUrl)) throw new EngineInputError('erase needs an image and a mask');
    return {
      model: FAL_MODELS.erase,
      body: { image_url: await up(str(i.imageUrl)!, ['image']), mask_url: await up(str(i.maskUrl)!, ['image']) },
    };
  },
  'face-swap': async (i, up) => {
    if (!str(i.imageUrl) || !str(i.faceImageUrl)) throw new EngineInputError('face swap needs a picture and a face');
    // Ours: imageUrl is the picture to change, faceImageUrl the face to put in; fal's: target_image_url,
    // source_face_url.
    return {
      model: FAL_MODELS.faceSwap,
      body: {
        target_image_url: await up(str(i.imageUrl)!, ['image']),
        source_face_url: await up(str(i.faceImageUrl)!, ['image']),
      },
    };
  },
  restore: async (i, up) => {
    if (!str(i.imageUrl)) throw new EngineInputError('restore needs a photo');
    return { model: FAL_MODELS.restore, body: { image_url: await up(str(i.imageUrl)!, ['image']) } };
  },
  'video-matting': async (i, up) => {
    if (!str(i.videoUrl)) throw new EngineInputError('video matting needs a video');
    return {
      model: FAL_MODELS.videoMatting,
      body: { video_url: await up(str(i.videoUrl)!, ['video']), background_color: [...FAL_MATTING_BACKGROUND] },
    };
  },
};
// Features that are the same model call under another name (Wan variants, the talking-face tool).
JOBS['wan-text-to-video'] = JOBS['text-to-video'];
JOBS['wan-image-to-video'] = JOBS['image-to-video'];
JOBS['character-to-video'] = JOBS['image-to-video'];
JOBS['talking-face'] = JOBS.lipsync;

/** The still of the image-to-video and talking tools (each tool names it its own way). */
function imageOf(i: Input): string | undefined {
  return str(i.imageUrl) ?? str(i.imgUrl) ?? str(i.image) ?? str(i.photoUrl);
}

/** Wan's resolution for the one asked (720p when none is given, as the public text2video/img2video carry none). */
function resolution(i: Input): '480p' | '720p' {
  const asked = str(i.resolution) ?? '720p';
  const made = (FAL_WAN.resolutions as Record<string, '480p' | '720p' | undefined>)[asked];
  const durationS = typeof i.durationS === 'number' ? i.durationS : 0;
  if (!made || durationS > FAL_WAN.maxDurationS) {
    throw new EngineUnsupportedError(
      `${PROVIDER}'s Wan 2.1 makes clips of up to ${FAL_WAN.maxDurationS} s at 480p or 720p, not ${durationS ? `${durationS} s at ` : ''}${asked}`,
    );
  }
  return made;
}
