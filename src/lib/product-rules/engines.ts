// Engines: names, what users are told about each, the preview engine's video formats and the provider adapters' limits.

import type { Feature } from './pricing';

/** Every engine name ENGINES may list (docs/engines.md). */
export const ENGINE_NAMES = ['espeak', 'preview', 'fal', 'elevenlabs', 'dreamapi'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** What a user is shown next to a result: the preview engine never claims to be an AI model. */
export const ENGINE_LABELS: Record<EngineName, string> = {
  // Short enough that "Free here: …" fits one line of a phone's cost bar (FEATURE_MESSAGES.free).
  espeak: 'eSpeak NG (no AI model)',
  preview: 'preview engine (no AI model)',
  fal: 'fal.ai',
  elevenlabs: 'ElevenLabs',
  dreamapi: 'DreamAPI',
};

export function engineLabel(name: string): string {
  return (ENGINE_LABELS as Record<string, string>)[name] ?? name;
}

/** Video features the preview engine serves, routed to it by default so every video flow runs with no key. */
export const PREVIEW_FEATURES = [
  'image-to-video',
  'character-to-video',
  'text-to-video',
  'wan-text-to-video',
  'wan-image-to-video',
  'talking-image',
  'talking-face',
  'lipsync',
] as const satisfies readonly Feature[];

/** Frame sizes of the resolutions of SPEC.md §9 (16:9, even sides as H.264 with yuv420p needs). */
export const VIDEO_SIZES: Record<string, { width: number; height: number }> = {
  '480p': { width: 854, height: 480 },
  '512p': { width: 912, height: 512 },
  '720p': { width: 1280, height: 720 },
  '1080p': { width: 1920, height: 1080 },
};

export const PREVIEW = {
  fps: 24,
  /** Wan 2.1 clips are 5 s (SPEC.md §9 "Wan2.1 5s"). */
  wanDurationS: 5,
  /** text2video/img2video of the public API carry no length or resolution: the §9 defaults. */
  defaultDurationS: 4,
  defaultResolution: '720p',
  /** Talking image and lip sync with no size given: 720p; a source video keeps its own size up to 1080p. */
  talkingResolution: '720p',
  /**
   * Character to video with a script: the offline voice (VOICES id) that speaks it, per sample model; a portrait gets
   * the default.
   */
  characterVoices: {
    'model-emma': 'en-us-female-1',
    'model-james': 'en-us-male-1',
    'model-sofia': 'en-gb-female-1',
    'model-daniel': 'en-gb-male-1',
  } as Record<string, string>,
  characterDefaultVoice: 'en-us-female-1',
  maxSide: 1920,
  /** x264 preset: previews favour speed over size. */
  x264Preset: 'veryfast',
  crf: 23,
  /** Input media an engine fetches from outside this server (bytes, ms). */
  maxFetchBytes: 100 * 1024 * 1024,
  fetchTimeoutMs: 30_000,
} as const;

/** Transient upstream failures are retried with exponential backoff (base × 2^n, capped) within a deadline. */
export const PROVIDER_RETRY = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 15_000,
  /** One HTTP request to a provider; a slower answer counts as a transient failure. */
  requestTimeoutMs: 30_000,
  /** A request that carries a media file (up to 100 MB of video): 10 min, about 1.4 Mbit/s at the cap. */
  uploadTimeoutMs: 10 * 60 * 1000,
  /** Polling a provider's job: first interval, growth and cap. */
  pollStartMs: 1000,
  pollFactor: 1.5,
  pollMaxMs: 10_000,
  /** A webhook that lands between two polls is remembered this long, so the next wait returns at once. */
  hookMemoryMs: 30_000,
  /** Most unclaimed webhooks remembered (anyone can post one; the oldest are forgotten first). */
  hookMemoryMaxKeys: 10_000,
} as const;

/**
 * A provider that cannot serve at all (its quota, billing, key or capacity) takes its engine out of the features'
 * fallback chains for a while. People are told only `message`; what to fix goes to the operator's log and /healthz.
 */
export const PROVIDER_UNAVAILABLE = {
  message: (provider: string) => `${provider} is unavailable right now; try again later`,
  /** Quota, billing or a refused key wait for a person to act. */
  accountMs: 10 * 60 * 1000,
  /** A busy provider (429 or 502–504 after every retry) usually recovers within a minute. */
  capacityMs: 60 * 1000,
} as const;

/**
 * A provider job kept with its task (server/tasks/provider-jobs.ts): a later attempt resumes it; a job the provider no
 * longer knows fails the attempt rather than being submitted again, since a second submit could be a second paid job.
 */
export const PROVIDER_JOB_MESSAGES = {
  unknown: (provider: string, job: string) =>
    `${provider} no longer knows the job ${job} an earlier attempt of this task started; it was not submitted again, since that could pay for the same result twice`,
  malformedRef: (provider: string) =>
    `the stored ${provider} job of an earlier attempt is unreadable; it was not submitted again, since that could pay for the same result twice`,
  orphaned:
    'this attempt no longer holds the task (canceled, handed back or taken over); its provider job was canceled',
} as const;

/** Per-engine defaults when ENGINE_CONCURRENCY / ENGINE_TIMEOUTS_MS do not name the engine. */
export const ENGINE_DEFAULTS = {
  concurrency: 2,
  timeoutMs: 10 * 60 * 1000,
} as const;

/**
 * The offline speech engine's thread pool (server/engines/espeak-pool.ts). A thread idle this long ends, giving back
 * its compiled 18 MB WASM module and instance; the next text after that waits for one compile again. Texts waiting
 * for a thread are capped per thread: ENGINE_CONCURRENCY keeps far fewer in flight, so only a runaway caller meets it.
 */
export const SPEECH_POOL = {
  idleTimeoutMs: 5 * 60 * 1000,
  queuedPerThread: 16,
} as const;

/** Default provider base URLs (overridable by env for proxies and tests). */
export const PROVIDER_URLS = {
  falQueue: 'https://queue.fal.run',
  /** fal's REST host, where fal-js's storage client uploads (libs/client/src/config.ts getRestApiUrl). */
  falStorage: 'https://rest.fal.ai',
  /** fal's webhook signing keys (https://docs.fal.ai/model-apis/model-endpoints/webhooks). */
  falWebhookJwks: 'https://rest.fal.ai/.well-known/jwks.json',
  elevenlabs: 'https://api.elevenlabs.io',
  dreamapi: 'https://api.newportai.com',
} as const;

/**
 * How fal's official client uploads to fal storage (fal-ai/fal-js libs/client/src/storage.ts upload(), commit
 * 381105e138b85502b528fb8f6c16d909e30e462a): initiate with ?storage_type=fal-cdn-v3 and one PUT, or above 90 MB
 * initiate-multipart, 10 MB parts PUT in order to {upload_url}/{n}, then {upload_url}/complete. The client does it;
 * these figures are what the tests hold the stand-in's uploads to.
 */
export const FAL_STORAGE = {
  multipartAboveBytes: 90 * 1024 * 1024,
  partBytes: 10 * 1024 * 1024,
} as const;

/**
 * The hosts fal's official client (@fal-ai/client) builds its URLs on (fal-ai/fal-js libs/client/src/request.ts
 * buildUrl with subdomain "queue", config.ts getRestApiUrl; commit 381105e138b85502b528fb8f6c16d909e30e462a). The
 * adapter sends queue and storage calls to FAL_QUEUE_URL and FAL_STORAGE_URL instead and refuses the rest.
 */
export const FAL_CLIENT_HOSTS = {
  queue: 'https://queue.fal.run',
  rest: 'https://rest.fal.ai',
} as const;

/** What the fal adapter says when a call ends without the answer it needed. */
export const FAL_MESSAGES = {
  /** A submit that may have reached fal (5xx, timeout, reset): fal may have queued the paid job. */
  notResent: (what: string) =>
    `fal.ai submit got no clear answer (${what}); it was not sent again, since fal may have queued the job and a second submit could start a second paid job`,
  /** A URL the client built on a fal host this server has no setting for. */
  unknownHost: (url: string) => `fal.ai client asked for ${url}, a host this server has no base URL setting for`,
} as const;

/**
 * fal.ai model ids per task. Each id and its input fields were checked against fal's own pages:
 * - textToVideo: https://docs.rs/crate/fal/latest/source/src/endpoints/fal_ai/wan_t2v/mod.rs (schema generated
 *   from fal's OpenAPI: prompt, resolution 480p|580p|720p, negative_prompt, seed → video)
 * - imageToVideo: https://fal.ai/models/fal-ai/wan-i2v/api and …/fal_ai/wan_i2v/mod.rs (prompt, image_url,
 *   resolution 480p|720p → video)
 * - lipsync: https://fal.ai/models/fal-ai/sync-lipsync/llms.txt (video_url, audio_url, sync_mode → video)
 * - talkingImage: https://docs.rs/crate/fal/latest/source/src/endpoints/fal_ai/sadtalker/mod.rs
 *   (source_image_url, driven_audio_url → video)
 * - tryOn: https://fal.ai/models/fal-ai/kling/v1-5/kolors-virtual-try-on/llms.txt (human_image_url,
 *   garment_image_url → image)
 * - imageGeneration: https://fal.ai/docs/model-api-reference/image-generation-api/flux-schnell.md (prompt,
 *   image_size, num_images, seed → images[])
 * - erase: https://fal.ai/models/fal-ai/bria/eraser/llms.txt (image_url, mask_url → image)
 * - faceSwap: https://fal.ai/models/half-moon-ai/ai-face-swap/faceswapimage/api (source_face_url = the face,
 *   target_image_url = the picture to change → image)
 * - restore: CodeFormer, fal-ai/fal-js libs/client/src/types/endpoints.ts CodeformerInput (image_url → image)
 * - videoMatting: https://fal.ai/models/fal-ai/ben/v2/video/llms.txt (video_url, background_color → video)
 */
export const FAL_MODELS = {
  textToVideo: 'fal-ai/wan-t2v',
  imageToVideo: 'fal-ai/wan-i2v',
  lipsync: 'fal-ai/sync-lipsync',
  talkingImage: 'fal-ai/sadtalker',
  tryOn: 'fal-ai/kling/v1-5/kolors-virtual-try-on',
  imageGeneration: 'fal-ai/flux/schnell',
  erase: 'fal-ai/bria/eraser',
  faceSwap: 'half-moon-ai/ai-face-swap/faceswapimage',
  restore: 'fal-ai/codeformer',
  videoMatting: 'fal-ai/ben/v2/video',
} as const;

/**
 * fal's input fields (FAL_MODELS' bodies, fal.ts JOBS) as ours, so a 422 naming one of them (FastAPI's
 * detail[].loc) names the field the caller sent. Fields not listed keep fal's name.
 */
export const FAL_INPUT_FIELDS: Readonly<Record<string, string>> = {
  prompt: 'prompt',
  negative_prompt: 'negativePrompt',
  seed: 'seed',
  resolution: 'resolution',
  image_url: 'imageUrl',
  source_image_url: 'imageUrl',
  target_image_url: 'imageUrl',
  source_face_url: 'faceImageUrl',
  mask_url: 'maskUrl',
  video_url: 'videoUrl',
  audio_url: 'audioUrl',
  driven_audio_url: 'audioUrl',
  human_image_url: 'modelImageUrl',
  num_images: 'count',
  image_size: 'aspectRatio',
};

/**
 * A fal refusal whose detail says the account, not the request, is at fault, whatever its status: a locked account
 * ("User is locked. Reason: Exhausted balance…" / "Admin lock" / "TOP_UP"). fal's FAQ: "When your credit balance drops
 * below your account's lock threshold, your account is locked and API requests will be rejected"
 * (https://fal.ai/docs/documentation/model-apis/faq).
 */
export const FAL_ACCOUNT_TROUBLE = /user is locked|exhausted balance|insufficient (balance|credits)/i;

/**
 * What fal's Wan 2.1 models make: clips of about 5 s (81 frames at 16 fps) at 480p or 720p. Our text-to-video rows
 * (SPEC.md §9) map onto them: 512p is made at 480p, 4 s at 720p as a 5 s clip; 8 s and 1080p are not offered there
 * (the next engine of the feature is tried), so no one pays for a length or size they did not get.
 */
export const FAL_WAN = {
  maxDurationS: 5,
  resolutions: { '480p': '480p', '512p': '480p', '720p': '720p' },
} as const;

/** Our image aspect ratios (IMAGE_ASPECT_RATIOS) as FLUX's image_size presets (fal's ImageSize enum). */
export const FAL_IMAGE_SIZES = {
  '1:1': 'square_hd',
  '16:9': 'landscape_16_9',
  '9:16': 'portrait_16_9',
  '4:3': 'landscape_4_3',
  '3:4': 'portrait_4_3',
} as const;

/**
 * Video matting's background (RGB): a solid colour keeps the result an opaque MP4 whose length we can read for the
 * per-second charge (a transparent result would need WebM); green is the usual chroma-key colour for compositing.
 */
export const FAL_MATTING_BACKGROUND = [0, 255, 0] as const;
