// The ElevenLabs adapter's constants (its endpoints are the official client's): models per feature, our voices' premade
// voice ids, output format and limits.

/** How errors and logs name the provider. */
export const ELEVENLABS_PROVIDER = 'ElevenLabs';

/**
 * Model per feature (ElevenLabs "Models" page): Flash v2.5 is the fast, low-cost multilingual model; Multilingual v2
 * the lifelike, consistent one; text to dialogue runs on Eleven v3 only; Scribe v2 transcribes, with diarization for
 * Pro. A cloned voice is charged as TTS Common, so it is spoken by the same model as Common.
 */
export const ELEVENLABS_MODELS = {
  ttsCommon: 'eleven_flash_v2_5',
  ttsPro: 'eleven_multilingual_v2',
  ttsClone: 'eleven_flash_v2_5',
  dialogue: 'eleven_v3',
  sttCommon: 'scribe_v2',
  sttPro: 'scribe_v2',
} as const;

/** MP3 at 44.1 kHz, 128 kbps: the best MP3 every subscription tier may ask for (192 kbps needs Creator or above). */
export const ELEVENLABS_OUTPUT_FORMAT = 'mp3_44100_128' as const;

/**
 * Our voices (VOICES in src/lib/product-rules/voices.ts) spoken by ElevenLabs premade voices of the same gender.
 * Premade voices speak every language of the multilingual models, so the text's language decides the language, not the
 * voice.
 */
export const ELEVENLABS_VOICES: Readonly<Record<string, { voiceId: string; name: string }>> = {
  'en-us-female-1': { voiceId: 'EXAVITQu4vr4xnSDxMaL', name: 'Sarah' },
  'en-us-male-1': { voiceId: 'TX3LPaxmHKxFdv7VOQHJ', name: 'Liam' },
  'en-gb-female-1': { voiceId: 'Xb7hH8MSUJpSbSDYk0k2', name: 'Alice' },
  'en-gb-male-1': { voiceId: 'JBFqnCBsd6RMkjVDRZzb', name: 'George' },
  'es-female-1': { voiceId: 'FGY2WhTYpPnrIDTdsKH5', name: 'Laura' },
  'es-male-1': { voiceId: 'bIHbv24MWmeRgasZH58o', name: 'Will' },
  'fr-female-1': { voiceId: 'XB0fDUnXU5powFXDhCwa', name: 'Charlotte' },
  'fr-male-1': { voiceId: 'IKne3meq5aSn9XLyUdCD', name: 'Charlie' },
  'de-female-1': { voiceId: 'XrExE9yKIg1WjnnlVkGX', name: 'Matilda' },
  'de-male-1': { voiceId: 'onwK4e9ZLuTAKqWW03F9', name: 'Daniel' },
  'it-female-1': { voiceId: 'cgSgspJ2msm6clMCkdW9', name: 'Jessica' },
  'pt-male-1': { voiceId: 'nPczCjzI2devNBz1zQrb', name: 'Brian' },
  'zh-female-1': { voiceId: 'pFZP5JQG7iQjIQuC4Bku', name: 'Lily' },
  'ja-female-1': { voiceId: '9BWtsMINqrJLrRacOk9x', name: 'Aria' },
};

export const ELEVENLABS_LIMITS = {
  /** Text to dialogue is reliable up to 2,000 characters of inputs[].text per request (Text to Dialogue quickstart). */
  dialogueCharsPerRequest: 2000,
  /** voice_settings.speed ElevenLabs accepts; 1 is the voice's natural pace. */
  minSpeed: 0.7,
  maxSpeed: 1.2,
} as const;

/**
 * Dubbing job statuses of GET /v1/dubbing/{id}: queued, preparing and dubbing are on the way, dubbed and failed are
 * final (elevenlabs/elevenlabs-js src/api/resources/dubbing/types/DubbingListRequestDubbingStatusesItem.ts at
 * 87100890798f961a1b93300e9bb443dc35b5de6a; its DubbingMetadataResponse.status is a plain string, so new statuses may
 * appear and are waited through).
 */
export const ELEVENLABS_DUBBING_STATUS = {
  running: ['queued', 'preparing', 'dubbing'],
  done: 'dubbed',
  failed: 'failed',
} as const;

/**
 * detail.status values of ElevenLabs' refusals that say the account, not the request, is at fault, and those that say
 * it is busy (elevenlabs/elevenlabs-docs fern/docs/pages/developer-guides/error-messages.mdx at
 * 3557f0b1bec8ec0233e48d03cc496f03c4396dcb: quota_exceeded and invalid_api_key come as 400 or 401, only_for_creator+ as
 * 403, too_many_concurrent_requests and system_busy as 429).
 */
export const ELEVENLABS_ERROR_STATUSES = {
  account: ['quota_exceeded', 'invalid_api_key', 'only_for_creator+'],
  busy: ['too_many_concurrent_requests', 'system_busy'],
} as const;

/**
 * Our task input field behind each field the adapter sends, so a validation error (detail[].loc) names what the caller
 * sent; a path not listed is named as ElevenLabs names it.
 */
export const ELEVENLABS_INPUT_FIELDS: Readonly<Record<string, string>> = {
  target_lang: 'targetLanguage',
  source_lang: 'sourceLanguage',
  text: 'text',
  inputs: 'lines',
  'voice_settings.speed': 'speed',
  language_code: 'lan',
  files: 'voiceUrl',
};

/**
 * Progress shown (ElevenLabs reports none): `submitted` once a request or job is sent, growing towards `beforeResult`
 * as dialogue parts arrive or a dubbing's expected time passes (`unknownEta` when it gave none), `lipSync` while lips
 * are re-timed.
 */
export const ELEVENLABS_PROGRESS = { submitted: 10, beforeResult: 80, unknownEta: 45, lipSync: 85 } as const;

/** Names given to what the adapter creates in the ElevenLabs account, so an operator can tell them apart. */
/**
 * Names of the provider jobs an ElevenLabs run keeps with its task (ctx.providerJobs); lip sync's start with
 * `lip-sync`.
 */
export const ELEVENLABS_JOBS = {
  dubbing: 'dubbing',
  lipSyncPrefix: 'lip-sync',
} as const;

export const ELEVENLABS_NAMES = {
  clone: (taskId: string) => `Voice clone ${taskId}`,
  dubbing: (taskId: string) => `Dub ${taskId}`,
  /** How a diarized transcript names speaker n (1-based), e.g. "Speaker 1: Hello". */
  speaker: (n: number) => `Speaker ${n}`,
} as const;
