// Our stored task input → the DreamAPI tool and its fields (docs: do_tts_*, voice_clone, talking_face, do_stt*, …).
import {
  DREAMAPI_DEFAULT_LAN,
  DREAMAPI_LAN_OVERRIDES,
  DREAMAPI_STT_PRO_LANGUAGES,
  DREAMAPI_TEXT2VIDEO_STYLES,
  dreamApiTool,
  DREAMAPI_TTS_AUDIO_IDS,
  DREAMAPI_TTS_LANGUAGES,
  DREAMAPI_VIDEO_PARAMS,
  type DreamApiFeature,
} from './dreamapi-constants';
import { primaryLanguage, voiceById, type MediaKind } from '../../../src/lib/product-rules';
import { EngineInputError, EngineUnsupportedError } from '../types';
import { PROVIDER } from './dreamapi-client';

type Input = Record<string, unknown>;
type Body = Record<string, unknown>;

/** Makes one of the task's media URLs reachable by DreamAPI (checked to be of `kinds` first). */
export type MediaUrl = (url: string, kinds: readonly MediaKind[]) => Promise<string>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim().length > 0 ? v : undefined);

function need(value: string | undefined, what: string): string {
  if (!value) throw new EngineInputError(`${PROVIDER} needs ${what}`);
  return value;
}

/** A language tag as DreamAPI's `lan` spells it: the primary subtag ("en-US" → "en"), with its few exceptions. */
export function dreamLan(language: string): string {
  const primary = primaryLanguage(language);
  return DREAMAPI_LAN_OVERRIDES[primary] ?? primary;
}

/** do_stt_pro accepts a fixed list of locales: the task's language matched to one, else en-US. */
function sttProLan(language: string | undefined): string[] {
  const want = (language ?? 'en-US').toLowerCase();
  const exact = DREAMAPI_STT_PRO_LANGUAGES.find((l) => l.toLowerCase() === want);
  const byPrimary = DREAMAPI_STT_PRO_LANGUAGES.find((l) => primaryLanguage(l) === primaryLanguage(want));
  return [exact ?? byPrimary ?? 'en-US'];
}

/**
 * Our voices are ours: DreamAPI gets the documented upstream voice (audioId, required) of the voice's language. Submit
 * refuses a language the engine does not list (DREAMAPI_TTS_LANGUAGES); a task queued before that still never sends
 * a request DreamAPI would refuse: the next engine of the feature is tried, or the task fails and is refunded.
 */
function speech(feature: 'tts-common' | 'tts-pro', i: Input): Body {
  const voice = voiceById(str(i.voice) ?? '');
  if (!voice) throw new EngineInputError(`${PROVIDER}: unknown voice ${String(i.voice)}`);
  const lan = dreamLan(voice.language);
  const audioId = DREAMAPI_TTS_AUDIO_IDS[feature][lan];
  if (!audioId)
    throw new EngineUnsupportedError(
      `audioId: ${PROVIDER} has no documented voice for ${voice.language} (voice ${voice.id}); it speaks ${DREAMAPI_TTS_LANGUAGES[feature].join(', ')}`,
    );
  return { audioId, text: need(str(i.text), 'a text'), lan };
}

/** Sample avatar models are drawings of this platform's preview engine; DreamAPI can only animate a real image. */
function imageOf(i: Input, feature: string): string {
  const image = str(i.imgUrl) ?? str(i.imageUrl) ?? str(i.photoUrl) ?? str(i.image);
  if (!image && str(i.modelId))
    throw new EngineUnsupportedError(
      `${PROVIDER} cannot use a sample model (${String(i.modelId)}) for ${feature}; give an image instead`,
    );
  return need(image, `an image for ${feature}`);
}

async function lipSyncBody(i: Input, media: MediaUrl): Promise<Body> {
  const video = need(str(i.srcVideoUrl) ?? str(i.videoUrl), 'a video (srcVideoUrl)');
  const vocal = str(i.vocalAudioUrl);
  const params = i.videoParams && typeof i.videoParams === 'object' ? (i.videoParams as Body) : {};
  return {
    srcVideoUrl: await media(video, ['video']),
    audioUrl: await media(need(str(i.audioUrl), 'an audio (audioUrl)'), ['audio']),
    ...(vocal ? { vocalAudioUrl: await media(vocal, ['audio']) } : {}),
    videoParams: { ...DREAMAPI_VIDEO_PARAMS, ...params },
  };
}

async function translateBody(feature: DreamApiFeature, i: Input, media: MediaUrl): Promise<Body> {
  const source = str(i.sourceLanguage);
  return {
    videoUrl: await media(need(str(i.videoUrl), 'a video (videoUrl)'), ['video']),
    ...(source ? { sourceLanguage: dreamLan(source) } : {}),
    targetLanguage: dreamLan(need(str(i.targetLanguage), 'a targetLanguage')),
    enableLipSync: feature === 'video-translate-lip-sync',
  };
}

/** Field names as our DreamAPI-compatible public API spells them; DreamAPI's own try-on page could not be read. */
async function tryOnBody(i: Input, media: MediaUrl): Promise<Body> {
  const garments: Body = {};
  for (const field of ['upperUrl', 'lowerUrl', 'onePieceUrl'] as const) {
    const url = str(i[field]);
    if (url) garments[field] = await media(url, ['image']);
  }
  if (Object.keys(garments).length === 0)
    throw new EngineInputError(`${PROVIDER} needs a garment (upperUrl, lowerUrl or onePieceUrl)`);
  return { modelImageUrl: await media(need(str(i.modelImageUrl), 'a model image'), ['image']), ...garments };
}

function textToVideoBody(i: Input): Body {
  const style = (DREAMAPI_TEXT2VIDEO_STYLES as readonly string[]).includes(str(i.style) ?? '')
    ? str(i.style)
    : DREAMAPI_TEXT2VIDEO_STYLES[0];
  return { prompt: need(str(i.prompt), 'a prompt'), style };
}

const wanResolution = (i: Input) => (str(i.resolution) === '720p' ? '720p' : '480p');

/** Fields of each tool's request body, with our media made reachable upstream. */
async function bodyOf(feature: DreamApiFeature, i: Input, media: MediaUrl): Promise<Body> {
  switch (feature) {
    case 'tts-common':
    case 'tts-pro':
      return speech(feature, i);
    case 'tts-clone':
      return {
        cloneId: need(str(i.cloneId), 'a cloneId'),
        text: need(str(i.text), 'a text'),
        lan: dreamLan(str(i.lan) ?? DREAMAPI_DEFAULT_LAN),
      };
    case 'voice-clone':
      return { voiceUrl: await media(need(str(i.voiceUrl), 'a voice recording (voiceUrl)'), ['audio']) };
    case 'talking-face':
    case 'lipsync':
      return lipSyncBody(i, media);
    case 'talking-image':
      return {
        photoUrl: await media(imageOf(i, feature), ['image']),
        audioUrl: await media(need(str(i.audioUrl), 'an audio (audioUrl)'), ['audio']),
      };
    case 'video-translate-lip-sync':
    case 'video-translate-voice-only':
      return translateBody(feature, i, media);
    case 'wan-text-to-video':
      return { prompt: need(str(i.prompt), 'a prompt'), resolution: wanResolution(i) };
    case 'wan-image-to-video':
      return {
        image: await media(imageOf(i, feature), ['image']),
        prompt: need(str(i.prompt), 'a prompt'),
        resolution: wanResolution(i),
      };
    case 'image-to-video':
    case 'character-to-video':
      return { prompt: need(str(i.prompt), 'a prompt'), imgUrl: await media(imageOf(i, feature), ['image']) };
    case 'text-to-video':
      return textToVideoBody(i);
    case 'tryon-clothes':
      return tryOnBody(i, media);
    case 'stt-common':
      return { audioUrl: await media(need(str(i.audioUrl), 'an audio (audioUrl)'), ['audio']) };
    case 'stt-pro':
      return {
        audioUrl: await media(need(str(i.audioUrl), 'an audio (audioUrl)'), ['audio']),
        lan: sttProLan(str(i.lan)),
      };
  }
}

export async function toDreamApi(
  feature: DreamApiFeature,
  input: unknown,
  media: MediaUrl,
): Promise<{ tool: string; body: Body }> {
  return { tool: dreamApiTool(feature), body: await bodyOf(feature, (input ?? {}) as Input, media) };
}
