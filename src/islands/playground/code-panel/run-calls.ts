// Each screen's current inputs as the public API call that does the same run (what "View code" shows), field for field
// as the form submits them. Screens hand over plain data (RunRequest) and this runs in the View code chunk, so none of
// it weighs on a screen's first load.
import type { RunSettings } from '../../../lib/product-rules';
import type { VideoType } from '../../../lib/site/products';
import { apiCall, fileUrlPlaceholder, type ApiCall } from './calls';

export function speechCall(o: {
  text: string;
  voice: string;
  quality: 'common' | 'pro';
  cloneId: string | null;
  settings: RunSettings;
}): ApiCall {
  const text = o.text.trim();
  if (o.cloneId) return apiCall('do_tts_clone', { cloneId: o.cloneId, text }, 'audio');
  return apiCall(
    o.quality === 'pro' ? 'do_tts_pro' : 'do_tts_common',
    { text, audioId: o.voice, ...o.settings },
    'audio',
  );
}

export function voiceCloneCall(sampleUrl: string | undefined): ApiCall {
  return apiCall('voice_clone', { voiceUrl: sampleUrl ?? fileUrlPlaceholder('voice.wav') }, 'clone');
}

export function dialogueCall(
  body: { lines: Array<{ speaker: string; text: string }>; voices: Record<string, string> },
  settings: RunSettings,
): ApiCall {
  return apiCall('dialogue', { lines: body.lines, voices: body.voices, ...settings }, 'audio');
}

export function clothesCall(modelUrl: string | undefined, garments: Record<string, string | undefined>): ApiCall {
  const given = Object.values(garments).some(Boolean) ? garments : { upperUrl: fileUrlPlaceholder('garment.png') };
  return apiCall('tryon_clothes', { modelImageUrl: modelUrl ?? fileUrlPlaceholder('model.png'), ...given }, 'image');
}

/** What the video screen's call depends on: its type, uploads, choices and the clip option. */
export interface VideoCallInput {
  prompt: string;
  imageUrl?: string;
  videoUrl?: string;
  audioUrl?: string;
  modelId: string;
  drive: 'script' | 'audio';
  source: string;
  target: string;
  lipSync: boolean;
  resolution: string;
  durationS: number;
  settings: RunSettings;
}

export function videoCall(type: VideoType, d: VideoCallInput): ApiCall {
  const clip = { prompt: d.prompt.trim(), resolution: d.resolution, duration: d.durationS, ...d.settings };
  const audioUrl = d.audioUrl ?? fileUrlPlaceholder('speech.wav');
  const videoUrl = d.videoUrl ?? fileUrlPlaceholder('video.mp4');
  // A portrait, when one is uploaded, replaces the sample model (as the form sends it).
  const character = d.imageUrl ? { imgUrl: d.imageUrl } : { modelId: d.modelId };
  switch (type) {
    case 'translate':
      return apiCall(
        'video_translate/2.0',
        { videoUrl, sourceLanguage: d.source, targetLanguage: d.target, enableLipSync: d.lipSync },
        'video',
      );
    case 'lipSync':
      return apiCall('talking_face', { srcVideoUrl: videoUrl, audioUrl }, 'video');
    case 'image':
      return apiCall('img2video', { ...clip, imgUrl: d.imageUrl ?? fileUrlPlaceholder('image.png') }, 'video');
    case 'text':
      return apiCall('text2video', clip, 'video');
    case 'character':
      if (d.drive === 'audio')
        return apiCall(
          'talking_image',
          { ...(d.imageUrl ? { photoUrl: d.imageUrl } : { modelId: d.modelId }), audioUrl },
          'video',
        );
      return apiCall('character2video', { ...clip, ...character }, 'video');
  }
}

/** A screen's current inputs, as plain data: the screen builds it on every render, View code turns it into the call. */
export type RunRequest =
  | {
      kind: 'speech';
      text: string;
      voice: string;
      quality: 'common' | 'pro';
      cloneId: string | null;
      settings: RunSettings;
    }
  | { kind: 'voiceClone'; sampleUrl: string | undefined }
  | {
      kind: 'dialogue';
      body: { lines: Array<{ speaker: string; text: string }>; voices: Record<string, string> };
      settings: RunSettings;
    }
  | { kind: 'clothes'; modelUrl: string | undefined; garments: Record<string, string | undefined> }
  | { kind: 'video'; type: VideoType; input: VideoCallInput };

export function callOf(r: RunRequest): ApiCall {
  switch (r.kind) {
    case 'speech':
      return speechCall(r);
    case 'voiceClone':
      return voiceCloneCall(r.sampleUrl);
    case 'dialogue':
      return dialogueCall(r.body, r.settings);
    case 'clothes':
      return clothesCall(r.modelUrl, r.garments);
    case 'video':
      return videoCall(r.type, r.input);
  }
}
