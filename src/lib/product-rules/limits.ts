// Limits of the task service (SPEC.md leaves them "not shown"): tasks, media and uploads, rate limits, idempotency,
// webhooks, outside URLs.

import type { Feature } from './pricing';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

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
  /** A dialogue speaker's name, and the name a user gives a cloned voice. */
  maxSpeakerNameChars: 40,
  /** The topic a generated dialogue script is about. */
  maxScriptTopicChars: 200,
  /** Prompt length for video tools (DreamAPI: prompt ≤ 1500 characters). */
  maxPromptChars: 1500,
  /** Images one image-generation task may make (each is charged). */
  maxImagesPerTask: 4,
  /** History page sizes (get_list). */
  defaultPageSize: 20,
  maxPageSize: 100,
} as const;

/**
 * Media kept for uploads and results: a configurable time, 7 days by default (MEDIA_RETENTION_DAYS,
 * docs/configuration.md).
 */
export const MEDIA_LIMITS = {
  retentionMs: 7 * DAY_MS,
  /** How long a signed media URL works. */
  signedUrlTtlMs: 24 * HOUR_MS,
  /** An upload policy (get_policy) must be used within this time. */
  uploadPolicyTtlMs: HOUR_MS,
} as const;

export type MediaKind = 'audio' | 'image' | 'video';

/** Upload caps per kind of media, checked on the bytes (not the file name). */
/** The file extension media of each accepted type is stored and downloaded under; anything else is `.bin`. */
export const MEDIA_EXTENSIONS: Readonly<Record<string, string>> = {
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'audio/webm': 'webm',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
};

export const UPLOAD_LIMITS: Record<
  MediaKind,
  { maxBytes: number; maxDurationS: number | null; mimes: readonly string[] }
> = {
  // audio/mp4 is M4A (AAC in MP4), audio/aac raw ADTS AAC, audio/ogg Ogg Opus or Vorbis, audio/webm a WebM of sound
  // only.
  audio: {
    maxBytes: 20 * 1024 * 1024,
    maxDurationS: 300,
    mimes: ['audio/wav', 'audio/mpeg', 'audio/mp4', 'audio/aac', 'audio/ogg', 'audio/flac', 'audio/webm'],
  },
  image: {
    maxBytes: 10 * 1024 * 1024,
    maxDurationS: null,
    mimes: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
  },
  video: { maxBytes: 100 * 1024 * 1024, maxDurationS: 300, mimes: ['video/mp4', 'video/quicktime', 'video/webm'] },
};

/**
 * Uploads being received at once (docs/security.md "Uploads in flight"). Each streams to a temporary file, so memory
 * stays flat; these bound the disk, the probe work and the connections one account or address can hold. The bytes are
 * what the requests announce (or the largest upload body when a request announces none), reserved when they start.
 */
export const UPLOADS_IN_FLIGHT = {
  perAccount: 3,
  perClient: 6,
  processBytes: 2 * 1024 * 1024 * 1024,
  /** Seconds a client is told to wait after a 429 for too many uploads at once. */
  retryAfterS: 10,
} as const;

/** Received upload bytes between two young-generation collections (server/http/young-garbage.ts). */
export const UPLOAD_MEMORY = { collectEveryBytes: 8 * 1024 * 1024 } as const;

/** Form fields an upload may carry beside its file (scene, reqId, signature, …), and the size of each. */
export const UPLOAD_FORM = { maxFields: 16, maxFieldBytes: 4096, maxParts: 24 } as const;

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

/** Public API rate limit per key (headers X-RateLimit-Limit/Remaining/Reset on every answer). */
export const RATE_LIMITS = {
  publicPerWindow: 120,
  windowMs: MINUTE_MS,
  /** Key prefix of the shared counters in Redis (REDIS_PREFIX), so several deployments can share one Redis. */
  sharedPrefix: 'dreamapi:',
  /** Longest a request waits on Redis for a count before it is counted in this process's memory instead. */
  sharedTimeoutMs: 500,
  /** While Redis is unreachable, the warning about it is logged at most this often. */
  sharedWarnEveryMs: MINUTE_MS,
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

/**
 * Checking fal's signed webhooks (https://docs.fal.ai/model-apis/model-endpoints/webhooks, "Verifying Your Webhook"):
 * ED25519 over request id, user id, timestamp and the body's SHA-256, with keys from fal's JWKS.
 */
export const FAL_WEBHOOK = {
  /** fal's docs reject a timestamp more than 5 minutes from now, either way (replays, forged dates). */
  toleranceS: 300,
  /** fal's docs allow caching the JWKS up to 24 h; an hour bounds how long a withdrawn key is still trusted. */
  jwksTtlMs: HOUR_MS,
  /**
   * A hook no cached key verifies refetches the JWKS (a rotated key), at most this often: forged hooks cannot hammer
   * it.
   */
  jwksRefreshCooldownMs: MINUTE_MS,
  /** One JWKS fetch, and the most of it read (a key set is a few hundred bytes). */
  jwksTimeoutMs: 5 * SECOND_MS,
  jwksMaxBytes: 64 * 1024,
} as const;

/** The answer to a fal webhook whose signature does not verify (HTTP 401). */
export const FAL_WEBHOOK_MESSAGES = {
  unverified: 'Webhook signature could not be verified',
} as const;
