// The DreamAPI upstream adapter's constants: endpoints, envelope codes, statuses, the tool behind each feature and the
// upload form.

import { toolOfFeature, type Feature, type MediaKind } from '../../../src/lib/product-rules';

/** Paths under DREAMAPI_BASE_URL (DreamAPI docs: polling, get-upload-policy, get-upload-result). */
export const DREAMAPI_PATHS = {
  /** Submit is `POST {asyncPrefix}{tool}`, e.g. /api/async/do_tts_common. */
  asyncPrefix: '/api/async/',
  result: '/api/getAsyncResult',
  uploadPolicy: '/api/file/v1/get_policy',
  uploadFinish: '/api/file/v1/policy_upload_finish',
} as const;

/**
 * Envelope `code` values. DreamAPI's docs give 0 (success) and 10192 "Illegal parameter", a refused input
 * (https://api.newportai.com/docs/polling.html and each tool's page). They list no code for a bad key, spent credits or
 * a rate limit (expected as HTTP 401/402/429); DreamAPI-compatible servers such as ours answer the SPEC.md §8 codes of
 * src/lib/product-rules/errors.ts ERROR_CODES and src/lib/product-rules/tasks.ts TASK_ERROR_CODES, read here alike.
 */
export const DREAMAPI_CODES = {
  ok: 0,
  illegalParameter: 10192,
  /** A refused input of a compatible server (ERROR_CODES.invalidInput, HTTP 400), its message "field: problem". */
  invalidInput: 40000,
  /**
   * The account, not the request: 40001 not logged in (a bad key), 40003 forbidden, 40020 credits too low (HTTP 402),
   * 40030 account suspended.
   */
  account: [40001, 40003, 40020, 40030],
  /** No room for now: 40029 rate limited (HTTP 429). */
  busy: [40029],
} as const;

/** HTTP statuses of account trouble (a refused key, unpaid use) whatever the envelope says. */
export const DREAMAPI_ACCOUNT_STATUSES: readonly number[] = [401, 402, 403];

/**
 * HTTP statuses that, still answered after every retry (providerFetch retries 429 and 5xx: DreamAPI documents no
 * retry rules of its own), mean DreamAPI has no room for now rather than a fault of the request.
 */
export const DREAMAPI_BUSY_STATUSES: readonly number[] = [429, 502, 503, 504];

/** `data.task.status` of getAsyncResult: 1 submitted, 2 in progress, 3 success, 4 failure. */
export const DREAMAPI_STATUS = { submitted: 1, running: 2, succeeded: 3, failed: 4 } as const;

/** Progress shown while the upstream job is queued or running (DreamAPI reports no percentage). */
export const DREAMAPI_PROGRESS = { submitted: 10, running: 50 } as const;

/** The features DreamAPI has a tool for (its docs show none for dialogue and the image tools other than try-on). */
export const DREAMAPI_FEATURES = [
  'tts-common',
  'tts-pro',
  'tts-clone',
  'voice-clone',
  'talking-face',
  'lipsync',
  'talking-image',
  'video-translate-lip-sync',
  'video-translate-voice-only',
  'wan-text-to-video',
  'wan-image-to-video',
  'image-to-video',
  'character-to-video',
  'text-to-video',
  'tryon-clothes',
  'stt-common',
  'stt-pro',
] as const satisfies readonly Feature[];
export type DreamApiFeature = (typeof DREAMAPI_FEATURES)[number];

/**
 * The upstream tool a feature is submitted to: our public API uses DreamAPI's tool names (toolOfFeature), except for
 * character-to-video, which has no tool of its own upstream and runs as img2video.
 */
export function dreamApiTool(feature: DreamApiFeature): string {
  return feature === 'character-to-video' ? 'img2video' : toolOfFeature(feature);
}

/**
 * The kind of file a successful job must carry; null when the result is data instead (cloneId, transcript).
 * Only files of this kind are kept, so a per-second feature is settled on its video alone.
 */
export const DREAMAPI_OUTPUT_KIND: Record<DreamApiFeature, MediaKind | null> = {
  'tts-common': 'audio',
  'tts-pro': 'audio',
  'tts-clone': 'audio',
  'voice-clone': null,
  'talking-face': 'video',
  lipsync: 'video',
  'talking-image': 'video',
  'video-translate-lip-sync': 'video',
  'video-translate-voice-only': 'video',
  'wan-text-to-video': 'video',
  'wan-image-to-video': 'video',
  'image-to-video': 'video',
  'character-to-video': 'video',
  'text-to-video': 'video',
  'tryon-clothes': 'image',
  'stt-common': null,
  'stt-pro': null,
};

/** Mime of a result whose download names none, from DreamAPI's imageType/videoType/audioType ("jpg", ".wav"). */
export const DREAMAPI_FILE_MIMES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
};

/**
 * The three-step upload: get_policy {scene} answers an OSS form policy (accessId, policy, signature, dir or key,
 * host, callback, reqId); the file is POSTed to `host` as multipart with these field names; policy_upload_finish
 * {reqId} answers the file's URL (valid about a day).
 */
export const DREAMAPI_UPLOAD = {
  /** The scene of DreamAPI's own example; it accepts images, audio and video. */
  scene: 'Dream-CN',
  fields: {
    key: 'key',
    policy: 'policy',
    accessId: 'OSSAccessKeyId',
    signature: 'signature',
    callback: 'callback',
    status: 'success_action_status',
    file: 'file',
  },
  successActionStatus: '200',
} as const;

/**
 * do_tts_common / do_tts_pro: `audioId` is required (api.newportai.com/docs/do-tts-common.html and do-tts-pro.html,
 * "audioIdstringRequired"): a voice from DreamAPI's own list, by `lan`; our voice ids are ours. The docs point to the
 * list at api.newportai.com/playground/speech, an app page that shows no ids without an account; the only ids the
 * docs give are their examples, both with "lan":"en". So these engines speak English only: every other language is
 * not offered on DreamAPI (DREAMAPI_TTS_LANGUAGES) until a documented id is added here.
 */
export const DREAMAPI_TTS_AUDIO_IDS: Record<'tts-common' | 'tts-pro', Record<string, string>> = {
  'tts-common': { en: '30612dc846b64713a6c6fc96f13ee5ea' },
  'tts-pro': { en: 'b90847cb8cfe4446881c6a3e15118084' },
};

/** The languages (DreamAPI `lan`, a primary subtag) each TTS tool has an audioId for: the only ones offered on it. */
export const DREAMAPI_TTS_LANGUAGES = {
  'tts-common': Object.keys(DREAMAPI_TTS_AUDIO_IDS['tts-common']),
  'tts-pro': Object.keys(DREAMAPI_TTS_AUDIO_IDS['tts-pro']),
} as const;

/** `lan` of do_tts_clone when the task names none (the docs' example language). */
export const DREAMAPI_DEFAULT_LAN = 'en';

/** do_stt_pro's `lan` list accepts only these codes; a task's language is matched to one (else en-US). */
export const DREAMAPI_STT_PRO_LANGUAGES = [
  'de-DE',
  'en-IN',
  'en-US',
  'es-ES',
  'es-MX',
  'fr-FR',
  'hi-IN',
  'it-IT',
  'ja-JP',
  'ko-KR',
  'pt-BR',
  'zh-CN',
] as const;

/** talking_face / lipsync `videoParams`: its three fields are required; 0 keeps the source size, no enhancement. */
export const DREAMAPI_VIDEO_PARAMS = { video_width: 0, video_height: 0, video_enhance: 0 } as const;

/** text2video styles DreamAPI accepts; anything else is sent as the first. */
export const DREAMAPI_TEXT2VIDEO_STYLES = ['general', 'anime'] as const;

/** `lan` codes DreamAPI spells differently from a language's primary subtag (do_tts_clone lists zh-CN). */
export const DREAMAPI_LAN_OVERRIDES: Record<string, string> = { zh: 'zh-CN' };
