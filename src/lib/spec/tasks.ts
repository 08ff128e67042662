// Generation tasks: features, their price items (SPEC.md §9), statuses, voices and the limits of the task service.

import type { QuoteParams } from './quote';
import type { PriceItemId } from './prices';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Every kind of task the platform runs; playground and public API calls both map onto these. */
export const FEATURES = [
  'tts-common',
  'tts-pro',
  'tts-clone',
  'voice-clone',
  'dialogue',
  'talking-face',
  'lipsync',
  'talking-image',
  'video-translate-lip-sync',
  'video-translate-voice-only',
  'text-to-video',
  'image-to-video',
  'character-to-video',
  'wan-text-to-video',
  'wan-image-to-video',
  'tryon-clothes',
  'image-generation',
  'erase',
  'face-swap',
  'restore',
  'video-matting',
  'stt-common',
  'stt-pro',
] as const;
export type Feature = (typeof FEATURES)[number];

export function isFeature(value: unknown): value is Feature {
  return typeof value === 'string' && (FEATURES as readonly string[]).includes(value);
}

/** Task lifecycle: queued → running → succeeded | failed | canceled. */
export const TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const FINISHED_STATUSES: readonly TaskStatus[] = ['succeeded', 'failed', 'canceled'];

/** DreamAPI's numeric task status: 1 submitted, 2 in progress, 3 success, 4 failure (docs/public-api.md "Results"). */
export const DREAM_STATUS: Record<TaskStatus, 1 | 2 | 3 | 4> = {
  queued: 1,
  running: 2,
  succeeded: 3,
  failed: 4,
  canceled: 4,
};

/** What a task's price depends on, as known at submit (estimate) or after the run (settle). */
export interface PriceInput {
  /** Characters of text to speak (speech features). */
  characters?: number;
  /** Seconds of media: the input's length at submit, the output's real length when settling. */
  seconds?: number;
  /** Output resolution for video features, e.g. '720p'. */
  resolution?: string;
  /** Clip length in seconds for fixed-length video features. */
  durationS?: number;
  /** Images asked for (image generation is charged per image). */
  count?: number;
}

/** The SPEC.md §9 item a feature is charged under, and the quote() measures for it. */
export function featurePrice(feature: Feature, p: PriceInput): { itemId: PriceItemId; params: QuoteParams } {
  const seconds = { seconds: p.seconds ?? 0 };
  switch (feature) {
    // A dialogue is speech of the same kind as TTS Common: the characters of every line are billed together.
    case 'tts-common':
    case 'tts-clone':
    case 'dialogue':
      return { itemId: 'tts-common', params: { characters: p.characters ?? 0 } };
    case 'tts-pro':
      return { itemId: 'tts-pro', params: { characters: p.characters ?? 0 } };
    case 'voice-clone':
      return { itemId: 'voice-clone', params: {} };
    case 'talking-face':
    case 'lipsync':
      return { itemId: 'lip-sync', params: seconds };
    case 'talking-image':
      return { itemId: 'talking-image', params: seconds };
    case 'video-translate-lip-sync':
      return { itemId: 'video-translate-lip-sync', params: seconds };
    case 'video-translate-voice-only':
      return { itemId: 'video-translate-voice-only', params: seconds };
    case 'text-to-video':
    case 'image-to-video':
    case 'character-to-video':
      return { itemId: textToVideoItem(p.durationS ?? 4, p.resolution ?? '720p'), params: {} };
    case 'wan-text-to-video':
    case 'wan-image-to-video':
      return { itemId: p.resolution === '720p' ? 'wan21-5s-720p' : 'wan21-5s-480p', params: {} };
    case 'tryon-clothes':
      return { itemId: 'ai-try-on', params: {} };
    case 'image-generation':
      return { itemId: 'image-generation', params: { count: p.count ?? 1 } };
    case 'erase':
      return { itemId: 'erase', params: {} };
    case 'face-swap':
      return { itemId: 'face-swap', params: {} };
    case 'restore':
      return { itemId: 'restore', params: {} };
    case 'video-matting':
      return { itemId: 'video-matting', params: seconds };
    // Speech to text is charged per started minute of the audio (SPEC.md §9 "STT 1 per minute (Pro 2)").
    case 'stt-common':
      return { itemId: 'stt-common', params: { minutes: (p.seconds ?? 0) / 60 } };
    case 'stt-pro':
      return { itemId: 'stt-pro', params: { minutes: (p.seconds ?? 0) / 60 } };
  }
}

/** The SPEC.md §9 text-to-video rows: 4 s at 512p, 720p or 1080p, and 8 s at 720p. */
export const TEXT_TO_VIDEO_OPTIONS = [
  { durationS: 4, resolution: '512p', itemId: 'text-to-video-4s-512p' },
  { durationS: 4, resolution: '720p', itemId: 'text-to-video-4s-720p' },
  { durationS: 8, resolution: '720p', itemId: 'text-to-video-8s-720p' },
  { durationS: 4, resolution: '1080p', itemId: 'text-to-video-4s-1080p' },
] as const satisfies ReadonlyArray<{ durationS: number; resolution: string; itemId: PriceItemId }>;

function textToVideoItem(durationS: number, resolution: string): PriceItemId {
  const row = TEXT_TO_VIDEO_OPTIONS.find((o) => o.durationS === durationS && o.resolution === resolution);
  return row?.itemId ?? 'text-to-video-4s-720p';
}

/** Features whose charge is settled on the real output length (SPEC.md §9 "per second" rows). */
export const PER_SECOND_FEATURES: readonly Feature[] = [
  'talking-face',
  'lipsync',
  'talking-image',
  'video-translate-lip-sync',
  'video-translate-voice-only',
  'video-matting',
];

/** Features charged on the length of their input audio: estimated at submit, settled on the audio the engine read (speech to text). */
export const INPUT_LENGTH_FEATURES: readonly Feature[] = ['stt-common', 'stt-pro'];

/**
 * The input file whose length a per-second or input-length feature is charged on (same field name in the playground
 * and the public API). It is read and measured at submit, so the full estimate is held before the task is accepted.
 */
export const LENGTH_INPUTS: Partial<Record<Feature, { field: string; kinds: readonly MediaKind[] }>> = {
  'talking-face': { field: 'audioUrl', kinds: ['audio'] },
  lipsync: { field: 'audioUrl', kinds: ['audio'] },
  'talking-image': { field: 'audioUrl', kinds: ['audio'] },
  'video-translate-lip-sync': { field: 'videoUrl', kinds: ['video'] },
  'video-translate-voice-only': { field: 'videoUrl', kinds: ['video'] },
  'video-matting': { field: 'videoUrl', kinds: ['video'] },
  'stt-common': { field: 'audioUrl', kinds: ['audio'] },
  'stt-pro': { field: 'audioUrl', kinds: ['audio'] },
};

/** Limits of the task service; the numbers are ours, SPEC.md leaves them "not shown". */
export const TASK_LIMITS = {
  /** Tasks one user may have queued or running at once; more answer 429 with Retry-After. */
  perUserConcurrent: 5,
  /** Seconds a client is told to wait after a 429 for too many concurrent tasks. */
  retryAfterS: 5,
  /** Tasks the in-process queue runs at once. */
  workerConcurrency: 2,
  /** A task still running after this is failed and refunded (no job hangs forever). */
  runTimeoutMs: 10 * MINUTE_MS,
  /** How often idle workers look for queued tasks another process may have stored. */
  pollIntervalMs: 1000,
  /** A task interrupted by a restart is retried this many times, then failed and refunded. */
  maxAttempts: 3,
  /** Text accepted by one speech task. */
  maxTextChars: 5000,
  /** Lines and speakers in one dialogue. */
  maxDialogueLines: 100,
  maxDialogueSpeakers: 4,
  /** Prompt length for video tools (DreamAPI: prompt ≤ 1500 characters). */
  maxPromptChars: 1500,
  /** Images one image-generation task may make (each is charged). */
  maxImagesPerTask: 4,
  /** History page sizes (get_list). */
  defaultPageSize: 20,
  maxPageSize: 100,
} as const;

/** Media kept for uploads and results: a configurable time, 7 days by default (MEDIA_RETENTION_DAYS, docs/configuration.md). */
export const MEDIA_LIMITS = {
  retentionMs: 7 * DAY_MS,
  /** How long a signed media URL works. */
  signedUrlTtlMs: 24 * HOUR_MS,
  /** How often the cleanup job removes expired media. */
  cleanupIntervalMs: HOUR_MS,
  /** An upload policy (get_policy) must be used within this time. */
  uploadPolicyTtlMs: HOUR_MS,
} as const;

export type MediaKind = 'audio' | 'image' | 'video';

/** Upload caps per kind of media, checked on the bytes (not the file name). */
export const UPLOAD_LIMITS: Record<MediaKind, { maxBytes: number; maxDurationS: number | null; mimes: readonly string[] }> = {
  // audio/mp4 is M4A (AAC in MP4), audio/aac raw ADTS AAC, audio/ogg Ogg Opus or Vorbis, audio/webm a WebM of sound only.
  audio: { maxBytes: 20 * 1024 * 1024, maxDurationS: 300, mimes: ['audio/wav', 'audio/mpeg', 'audio/mp4', 'audio/aac', 'audio/ogg', 'audio/flac', 'audio/webm'] },
  image: { maxBytes: 10 * 1024 * 1024, maxDurationS: null, mimes: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] },
  video: { maxBytes: 100 * 1024 * 1024, maxDurationS: 300, mimes: ['video/mp4', 'video/quicktime', 'video/webm'] },
};

/** Measuring an upload's length (ffprobe reads every packet of it) may take at most this long. */
export const UPLOAD_PROBE = { timeoutMs: 60_000 } as const;

/** Upload scenes of the three-step upload (DreamAPI get_policy {scene}) and the kinds each accepts. */
export const UPLOAD_SCENES: Record<string, readonly MediaKind[]> = {
  'Dream-TTS': ['audio'],
  'Dream-CN': ['audio', 'image', 'video'],
  audio: ['audio'],
  image: ['image'],
  video: ['video'],
  any: ['audio', 'image', 'video'],
};

/** Public API rate limit per key (headers X-RateLimit-Limit/Remaining/Reset on every answer). */
export const RATE_LIMITS = {
  publicPerWindow: 120,
  windowMs: MINUTE_MS,
} as const;

/** Idempotency-Key handling: a key is kept 24 h, as HeyGen's API does (docs/public-api.md "Idempotency"). */
export const IDEMPOTENCY = {
  maxKeyLength: 255,
  ttlMs: 24 * HOUR_MS,
} as const;

/** Webhook delivery (Standard Webhooks): attempts and the backoff between them. */
export const WEBHOOKS = {
  maxAttempts: 6,
  /** Delay before retry n is baseDelayMs × 4^(n-1): 5 s, 20 s, 80 s, … */
  baseDelayMs: 5 * SECOND_MS,
  backoffFactor: 4,
  timeoutMs: 10 * SECOND_MS,
  /** Receivers reject messages whose timestamp is further than this from their clock. */
  toleranceS: 300,
  secretPrefix: 'whsec_',
} as const;

/** Requests this server makes to URLs users give (input media, callbackUrl): public hosts only (docs/security.md). */
export const OUTBOUND = {
  /** Redirect hops an input download follows, each checked again; webhook deliveries follow none. */
  maxRedirects: 5,
} as const;

/** Why an outside URL is refused; each completes "input URL … " or "callbackUrl: …". */
export const OUTBOUND_MESSAGES = {
  notAbsolute: 'must be an absolute http(s) URL',
  notHttp: 'must be an http or https URL',
  credentials: 'must not contain credentials',
  privateHost: 'must point at a public host, not a private or local address',
  unknownHost: (host: string) => `names a host that could not be found (${host})`,
  tooManyRedirects: `redirects more than ${OUTBOUND.maxRedirects} times`,
  redirectTo: (url: string, problem: string) => `redirects to ${url}, which ${problem}`,
} as const;

/** Normal speaking rate in words per minute (eSpeak NG's default); the `speed` of speech tasks is on this scale. */
export const SPEECH_DEFAULT_WPM = 175;

/** A voice of the offline speech engine: id shown to users, its language and the eSpeak-NG voice behind it. */
export interface Voice {
  id: string;
  name: string;
  language: string;
  gender: 'female' | 'male';
  espeak: string;
}

/** Voices offered for TTS and dialogue; DreamAPI's audioId and lan map onto these. */
export const VOICES: readonly Voice[] = [
  { id: 'en-us-female-1', name: 'Ava', language: 'en-US', gender: 'female', espeak: 'en-us+f3' },
  { id: 'en-us-male-1', name: 'Noah', language: 'en-US', gender: 'male', espeak: 'en-us+m3' },
  { id: 'en-gb-female-1', name: 'Olivia', language: 'en-GB', gender: 'female', espeak: 'en-gb+f2' },
  { id: 'en-gb-male-1', name: 'Oliver', language: 'en-GB', gender: 'male', espeak: 'en-gb+m1' },
  { id: 'es-female-1', name: 'Lucía', language: 'es', gender: 'female', espeak: 'es+f3' },
  { id: 'es-male-1', name: 'Mateo', language: 'es', gender: 'male', espeak: 'es+m3' },
  { id: 'fr-female-1', name: 'Chloé', language: 'fr', gender: 'female', espeak: 'fr+f3' },
  { id: 'fr-male-1', name: 'Louis', language: 'fr', gender: 'male', espeak: 'fr+m3' },
  { id: 'de-female-1', name: 'Mia', language: 'de', gender: 'female', espeak: 'de+f3' },
  { id: 'de-male-1', name: 'Felix', language: 'de', gender: 'male', espeak: 'de+m3' },
  { id: 'it-female-1', name: 'Giulia', language: 'it', gender: 'female', espeak: 'it+f3' },
  { id: 'pt-male-1', name: 'Tiago', language: 'pt', gender: 'male', espeak: 'pt+m3' },
  { id: 'zh-female-1', name: 'Mei', language: 'zh', gender: 'female', espeak: 'cmn+f3' },
  { id: 'ja-female-1', name: 'Yui', language: 'ja', gender: 'female', espeak: 'ja+f3' },
];

export function voiceById(id: string): Voice | undefined {
  return VOICES.find((v) => v.id === id);
}

/** The default voice of a language (DreamAPI `lan` without `audioId`), matching 'en' to 'en-US'. */
export function voiceForLanguage(lan: string): Voice | undefined {
  const want = lan.toLowerCase();
  return VOICES.find((v) => v.language.toLowerCase() === want) ?? VOICES.find((v) => primaryLanguage(v.language) === primaryLanguage(want));
}

/** The primary subtag of a language tag, lower-cased: 'en-US' and 'en_us' → 'en'. */
export function primaryLanguage(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0]!;
}

/** Sample avatar models of SPEC.md §3 (name, desc, id, src), served from public/models/. */
export const SAMPLE_MODELS = [
  { id: 'model-emma', name: 'Emma', desc: 'Friendly presenter with shoulder-length hair, warm studio light', src: '/models/emma.svg' },
  { id: 'model-james', name: 'James', desc: 'Business host in a navy suit, neutral office background', src: '/models/james.svg' },
  { id: 'model-sofia', name: 'Sofia', desc: 'Energetic creator with curly hair, bright casual style', src: '/models/sofia.svg' },
  { id: 'model-daniel', name: 'Daniel', desc: 'Calm narrator with glasses and a beard, soft daylight', src: '/models/daniel.svg' },
] as const;

/** Messages of the task service, as shown to people. */
export const TASK_MESSAGES = {
  insufficientCredits: 'Not enough credits for this task',
  tooManyTasks: 'Too many tasks in progress; wait for one to finish and try again',
  taskNotFound: 'No task with this id',
  notCancelable: 'Only queued or running tasks can be canceled',
  idempotencyConflict: 'This Idempotency-Key was already used with a different request body',
  rateLimited: 'Too many requests; slow down and try again after the reset time',
  canceledByUser: 'Canceled by the user',
  interrupted: 'The server restarted while this task was running and it could not be resumed; credits refunded',
  timedOut: 'The task took too long and was stopped; credits refunded',
  engineFailed: 'The engine failed to produce a result; credits refunded',
  mediaExpired: 'This media link has expired or is not valid',
  uploadPolicyUnknown: 'Unknown or expired reqId; request a new policy with get_policy',
  uploadMissing: 'No file was uploaded for this reqId yet',
  mediaUnknown: 'this media link is not valid or its file has expired; upload the file again',
  mediaNotYours: 'this media link is a file of another account; upload the file with your own account and pass the link it answers',
  inputUnmeasured: 'the length of this file could not be measured; send a complete audio or video file in an accepted format',
  inputUnreadable: 'the file could not be read to measure its length',
  inputChanged: (wasS: number, nowS: number) => `the input file changed after the task was accepted: it was ${Math.ceil(wasS)} s and is now ${Math.ceil(nowS)} s; submit the task again`,
  outputsExpired: 'The results of this task were removed after the retention period; the task record and its charge stay',
  outputsExpiredOn: (date: string) => `Outputs expired on ${date}`,
} as const;

/** Envelope codes of task refusals, beside ERROR_CODES (same 5-digit shape; HTTP status in the comment). */
export const TASK_ERROR_CODES = {
  /** HTTP 402: the balance does not cover the estimate; no task is created. */
  insufficientCredits: 40020,
  /** HTTP 429 with Retry-After: too many of the user's tasks are queued or running. */
  tooManyTasks: 40029,
  /** HTTP 409: the same Idempotency-Key with another body, or a task that can no longer be canceled. */
  conflict: 40009,
  /** HTTP 404 */
  taskNotFound: 40004,
} as const;

/** DreamAPI tools of POST /api/async/<tool> (DreamAPI's own tool names, docs/public-api.md) and the feature each runs. */
export const PUBLIC_TOOLS = {
  do_tts_common: 'tts-common',
  do_tts_pro: 'tts-pro',
  voice_clone: 'voice-clone',
  do_tts_clone: 'tts-clone',
  talking_face: 'talking-face',
  lipsync: 'lipsync',
  talking_image: 'talking-image',
  'video_translate/2.0': 'video-translate-lip-sync',
  'wan/text_to_video/2.1': 'wan-text-to-video',
  'wan/image_to_video/2.1': 'wan-image-to-video',
  img2video: 'image-to-video',
  text2video: 'text-to-video',
  tryon_clothes: 'tryon-clothes',
  image_generation: 'image-generation',
  erase: 'erase',
  face_swap: 'face-swap',
  restore: 'restore',
  video_matting: 'video-matting',
  do_stt: 'stt-common',
  do_stt_pro: 'stt-pro',
} as const satisfies Record<string, Feature>;

/** Shapes image generation offers (width:height). */
export const IMAGE_ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4'] as const;
export type ImageAspectRatio = (typeof IMAGE_ASPECT_RATIOS)[number];
export type PublicTool = keyof typeof PUBLIC_TOOLS;

/** The DreamAPI taskType a feature answers with. */
export function toolOfFeature(feature: Feature): string {
  if (feature === 'video-translate-voice-only') return 'video_translate/2.0';
  if (feature === 'dialogue') return 'dialogue';
  if (feature === 'character-to-video') return 'character2video';
  const hit = Object.entries(PUBLIC_TOOLS).find(([, f]) => f === feature);
  return hit ? hit[0] : feature;
}
