// The video screen's draft and what follows from it: the feature a submit runs, what is still missing, the call made.
import { SAMPLE_MODELS, TEXT_TO_VIDEO_OPTIONS, type Feature } from '../../lib/product-rules';
import type { VideoType } from '../../lib/site/products';
import { playgroundApi, type UploadedMedia } from './api';
import type { RunSettings } from './run-settings';
import { promptProblem } from './validate';
import { optionKey } from './VideoOptions';

export const VIDEO_HISTORY: Record<VideoType, readonly Feature[]> = {
  image: ['image-to-video'],
  text: ['text-to-video'],
  character: ['character-to-video', 'talking-image'],
  translate: ['video-translate-lip-sync', 'video-translate-voice-only'],
  lipSync: ['talking-face'],
};
export const VIDEO_TITLES: Record<VideoType, string> = {
  image: 'Image to video',
  text: 'Text to video',
  character: 'Character to video',
  translate: 'Video translation',
  lipSync: 'Lip sync',
};

export interface VideoDraft {
  prompt: string;
  option: string;
  image: UploadedMedia | null;
  video: UploadedMedia | null;
  audio: UploadedMedia | null;
  modelId: string;
  drive: 'script' | 'audio';
  source: string;
  target: string;
  lipSync: boolean;
  settings: RunSettings;
}

export const initialVideoDraft: VideoDraft = {
  prompt: '',
  option: optionKey(TEXT_TO_VIDEO_OPTIONS[1]),
  image: null,
  video: null,
  audio: null,
  modelId: SAMPLE_MODELS[0].id,
  drive: 'script',
  source: '',
  target: 'es',
  lipSync: true,
  settings: {},
};

/** The feature a submit runs, from the page's type and its choices. */
export function videoFeature(type: VideoType, d: Pick<VideoDraft, 'drive' | 'lipSync'>): Feature {
  if (type === 'image') return 'image-to-video';
  if (type === 'text') return 'text-to-video';
  if (type === 'character') return d.drive === 'audio' ? 'talking-image' : 'character-to-video';
  if (type === 'translate') return d.lipSync ? 'video-translate-lip-sync' : 'video-translate-voice-only';
  return 'talking-face';
}

/** Whether the page asks for a prompt and the clip options: the types that make a clip from words. */
export const usesVideoOptions = (type: VideoType, d: Pick<VideoDraft, 'drive'>) =>
  type === 'image' || type === 'text' || (type === 'character' && d.drive === 'script');

/** What stops a submit, said as the form shows it; null when the draft can run. */
export function videoProblem(type: VideoType, draft: VideoDraft): string | null {
  if (usesVideoOptions(type, draft)) {
    const p = promptProblem(draft.prompt);
    if (p)
      return type === 'character'
        ? p.replace('describe what should happen in the video', 'write what the character says or does')
        : p;
  }
  if (type === 'image' && !draft.image) return 'Image: upload the picture to animate.';
  if ((type === 'translate' || type === 'lipSync') && !draft.video) return 'Video: upload the video first.';
  if ((type === 'lipSync' || (type === 'character' && draft.drive === 'audio')) && !draft.audio)
    return 'Audio: upload the speech to sync to.';
  if (type === 'translate' && draft.source && draft.source === draft.target)
    return 'Choose a target language different from the source.';
  return null;
}

/** The playground call a valid draft makes: a portrait, when uploaded, stands in for the sample model. */
export function startVideo(
  type: VideoType,
  draft: VideoDraft,
  option: (typeof TEXT_TO_VIDEO_OPTIONS)[number],
  settings: RunSettings,
) {
  const portrait = draft.image?.url;
  const model = portrait ? undefined : draft.modelId;
  if (type === 'translate')
    return playgroundApi.translate(draft.lipSync, {
      videoUrl: draft.video!.url,
      targetLanguage: draft.target,
      ...(draft.source ? { sourceLanguage: draft.source } : {}),
    });
  if (type === 'lipSync') return playgroundApi.talkingFace({ audioUrl: draft.audio!.url, videoUrl: draft.video!.url });
  if (type === 'character' && draft.drive === 'audio')
    return playgroundApi.talkingFace({
      audioUrl: draft.audio!.url,
      ...(portrait ? { imageUrl: portrait } : { modelId: model }),
    });
  return playgroundApi.animate({
    type,
    prompt: draft.prompt.trim(),
    resolution: option.resolution,
    duration: option.durationS,
    ...settings,
    ...(type === 'image' || (type === 'character' && portrait) ? { imageUrl: portrait } : {}),
    ...(type === 'character' && !portrait ? { modelId: model } : {}),
  });
}
