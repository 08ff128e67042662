// Environment variables of the task service, media store, engines, public API limits and webhooks (merged into the
// server configuration in index.ts).
import path from 'node:path';
import { z } from 'zod';
import type { ProviderConfig } from '../engines/providers';
import {
  FEATURES,
  MEDIA_LIMITS,
  RATE_LIMITS,
  TASK_LIMITS,
  WEBHOOKS,
  isFeature,
  type Feature,
  ENGINE_NAMES as ALL_ENGINE_NAMES,
  PREVIEW_FEATURES,
  PROVIDER_URLS,
  NO_MODEL_PRICES,
  NO_MODEL_PRICE_DEFAULT,
  type NoModelPrice,
} from '../../src/lib/product-rules';

const DAY_MS = 24 * 60 * 60 * 1000;

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * Engines a feature may be given in ENGINES: 'espeak' (offline speech), 'preview' (offline video), the provider
 * adapters.
 */
export const ENGINE_NAMES = ALL_ENGINE_NAMES;

/** Features served by default: offline speech and preview video need no key and no system package. */
const DEFAULT_ENGINES = [
  'tts-common=espeak,tts-pro=espeak,tts-clone=,dialogue=espeak',
  ...PREVIEW_FEATURES.map((f) => `${f}=preview`),
].join(',');

/** ENGINES=feature=engine|fallback,… : each feature's engines in the order they are tried. */
const engineMap = z.string().transform((value, ctx) => {
  const map: Partial<Record<Feature, string[]>> = {};
  for (const pair of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [feature, engines = ''] = pair.split('=').map((s) => s.trim());
    if (!isFeature(feature)) {
      ctx.addIssue({ code: 'custom', message: `unknown feature "${feature}"; features are ${FEATURES.join(', ')}` });
      return z.NEVER;
    }
    // An empty list is kept so it can switch a default off when merged (tts-clone=).
    map[feature] = engines
      .split('|')
      .map((s) => s.trim())
      .filter(Boolean);
  }
  return map;
});

/** name=number,… (ENGINE_CONCURRENCY, ENGINE_TIMEOUTS_MS): per-engine limits. */
const perEngine = z.string().transform((value, ctx) => {
  const map: Record<string, number> = {};
  for (const pair of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name = '', raw = ''] = pair.split('=').map((s) => s.trim());
    const n = Number(raw);
    if (!name || !Number.isInteger(n) || n < 1) {
      ctx.addIssue({ code: 'custom', message: `"${pair}" must be engine=positive integer` });
      return z.NEVER;
    }
    map[name] = n;
  }
  return map;
});

export const taskEnvShape = {
  // A value given is merged over the defaults, so ENGINES=text-to-video=fal|preview keeps speech on espeak.
  ENGINES: engineMap.optional(),
  ENGINE_CONCURRENCY: perEngine.default({}),
  ENGINE_TIMEOUTS_MS: perEngine.default({}),
  /**
   * What a run on an engine with no AI model (espeak, preview) costs: free, or the full price
   * (src/lib/product-rules/pricing/run-price.ts).
   */
  NO_MODEL_PRICE: z.enum(NO_MODEL_PRICES).default(NO_MODEL_PRICE_DEFAULT),
  FAL_KEY: z.string().min(1).optional(),
  FAL_QUEUE_URL: z.url().default(PROVIDER_URLS.falQueue),
  FAL_STORAGE_URL: z.url().default(PROVIDER_URLS.falStorage),
  /** Where fal's webhook signing keys are read (a local server in tests). */
  FAL_WEBHOOK_JWKS_URL: z.url().default(PROVIDER_URLS.falWebhookJwks),
  ELEVENLABS_API_KEY: z.string().min(1).optional(),
  ELEVENLABS_BASE_URL: z.url().default(PROVIDER_URLS.elevenlabs),
  DREAMAPI_KEY: z.string().min(1).optional(),
  DREAMAPI_BASE_URL: z.url().default(PROVIDER_URLS.dreamapi),
  /** Public base URL providers can call back (webhooks); unset means adapters poll. */
  ENGINE_WEBHOOK_URL: z.url().optional(),
  TASK_WORKERS: z.coerce.number().int().min(1).max(256).default(TASK_LIMITS.workerConcurrency),
  TASK_USER_CONCURRENCY: z.coerce.number().int().min(1).default(TASK_LIMITS.perUserConcurrent),
  TASK_TIMEOUT_MS: z.coerce.number().int().min(1000).default(TASK_LIMITS.runTimeoutMs),
  TASK_POLL_MS: z.coerce.number().int().min(10).default(TASK_LIMITS.pollIntervalMs),
  MEDIA_DIR: z.string().min(1).optional(),
  MEDIA_RETENTION_DAYS: z.coerce
    .number()
    .positive()
    .default(MEDIA_LIMITS.retentionMs / DAY_MS),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(RATE_LIMITS.publicPerWindow),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).default(WEBHOOKS.baseDelayMs),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(WEBHOOKS.maxAttempts),
  OUTBOUND_ALLOW_PRIVATE: flag.optional(),
  /** Former name of OUTBOUND_ALLOW_PRIVATE, still read when the new one is not set. */
  WEBHOOK_ALLOW_PRIVATE: flag.optional(),
};

export interface TaskConfig {
  /**
   * feature → engine names in fallback order (ENGINES over the offline defaults); a feature missing here is refused at
   * submit.
   */
  engines: Partial<Record<Feature, string[]>>;
  /** Features ENGINES names explicitly: only these are exempt from routing to configured providers first. */
  enginesGiven: Feature[];
  /**
   * Tasks one engine runs at once, and how long one attempt on it may take (defaults in src/lib/product-rules/engines).
   */
  engineConcurrency: Record<string, number>;
  engineTimeoutsMs: Record<string, number>;
  /** NO_MODEL_PRICE: runs on engines with no AI model are free (default) or charged the full price. */
  noModelPrice: NoModelPrice;
  providers: ProviderConfig;
  /** fal's JWKS: the keys its webhooks to /engine-hooks/fal/… must be signed with. */
  falWebhookJwksUrl: string;
  workers: number;
  perUserConcurrent: number;
  runTimeoutMs: number;
  pollMs: number;
  mediaDir: string;
  retentionMs: number;
  rateLimitPerMinute: number;
  webhookRetryBaseMs: number;
  webhookMaxAttempts: number;
  /**
   * Lets input downloads and webhooks reach localhost and private networks (self-hosted setups, tests); off by default.
   */
  outboundAllowPrivate: boolean;
}

type TaskEnv = z.infer<z.ZodObject<typeof taskEnvShape>>;

export function taskConfig(e: TaskEnv, dataDir: string): TaskConfig {
  return {
    engines: Object.fromEntries(
      Object.entries({ ...engineMap.parse(DEFAULT_ENGINES), ...e.ENGINES }).filter(([, list]) => list.length > 0),
    ),
    enginesGiven: Object.keys(e.ENGINES ?? {}) as Feature[],
    engineConcurrency: e.ENGINE_CONCURRENCY,
    engineTimeoutsMs: e.ENGINE_TIMEOUTS_MS,
    noModelPrice: e.NO_MODEL_PRICE,
    providers: {
      fal: {
        key: e.FAL_KEY ?? null,
        queueUrl: e.FAL_QUEUE_URL.replace(/\/$/, ''),
        storageUrl: e.FAL_STORAGE_URL.replace(/\/$/, ''),
      },
      elevenlabs: { key: e.ELEVENLABS_API_KEY ?? null, baseUrl: e.ELEVENLABS_BASE_URL.replace(/\/$/, '') },
      dreamapi: { key: e.DREAMAPI_KEY ?? null, baseUrl: e.DREAMAPI_BASE_URL.replace(/\/$/, '') },
      webhookBaseUrl: e.ENGINE_WEBHOOK_URL?.replace(/\/$/, '') ?? null,
    },
    falWebhookJwksUrl: e.FAL_WEBHOOK_JWKS_URL,
    workers: e.TASK_WORKERS,
    perUserConcurrent: e.TASK_USER_CONCURRENCY,
    runTimeoutMs: e.TASK_TIMEOUT_MS,
    pollMs: e.TASK_POLL_MS,
    mediaDir: path.resolve(e.MEDIA_DIR ?? path.join(dataDir, 'media')),
    retentionMs: Math.round(e.MEDIA_RETENTION_DAYS * DAY_MS),
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    webhookRetryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
    webhookMaxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
    outboundAllowPrivate: e.OUTBOUND_ALLOW_PRIVATE ?? e.WEBHOOK_ALLOW_PRIVATE ?? false,
  };
}
