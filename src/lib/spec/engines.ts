// Engines: names, what users are told about each, the preview engine's video formats and the provider adapters' limits.

import type { Feature } from './tasks';

/** Every engine name ENGINES may list (issue 7). */
export const ENGINE_NAMES = ['espeak', 'preview', 'fal', 'elevenlabs', 'dreamapi'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** What a user is shown next to a result: the preview engine never claims to be an AI model. */
export const ENGINE_LABELS: Record<EngineName, string> = {
  espeak: 'eSpeak NG (offline speech synthesizer, no AI model)',
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
  /** Polling a provider's job: first interval, growth and cap. */
  pollStartMs: 1000,
  pollFactor: 1.5,
  pollMaxMs: 10_000,
} as const;

/** Per-engine defaults when ENGINE_CONCURRENCY / ENGINE_TIMEOUTS_MS do not name the engine. */
export const ENGINE_DEFAULTS = {
  concurrency: 2,
  timeoutMs: 10 * 60 * 1000,
} as const;

/** Default provider base URLs (overridable by env for proxies and tests). */
export const PROVIDER_URLS = {
  falQueue: 'https://queue.fal.run',
  falStorage: 'https://rest.alpha.fal.ai',
  elevenlabs: 'https://api.elevenlabs.io',
  dreamapi: 'https://api.newportai.com',
} as const;

/** fal.ai model ids per task (fal's model pages: Wan 2.1 text/image-to-video, sync lipsync, SadTalker, Kolors try-on). */
export const FAL_MODELS = {
  textToVideo: 'fal-ai/wan-t2v',
  imageToVideo: 'fal-ai/wan-i2v',
  lipsync: 'fal-ai/sync-lipsync',
  talkingImage: 'fal-ai/sadtalker',
  tryOn: 'fal-ai/kling/v1-5/kolors-virtual-try-on',
} as const;
