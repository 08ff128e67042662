// Environment variables of the task service, media store, engines, public API limits and webhooks (merged into server/config.ts).
import path from 'node:path';
import { z } from 'zod';
import { FEATURES, MEDIA_LIMITS, RATE_LIMITS, TASK_LIMITS, WEBHOOKS, isFeature, type Feature } from '../../src/lib/spec/tasks';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Engines a feature may be given in ENGINES; 'espeak' is the offline speech synthesizer. */
export const ENGINE_NAMES = ['espeak'] as const;

/** Features served by default: offline speech needs no key and no system package. */
const DEFAULT_ENGINES = 'tts-common=espeak,tts-pro=espeak,tts-clone=,dialogue=espeak';

const engineMap = z.string().transform((value, ctx) => {
  const map: Partial<Record<Feature, string>> = {};
  for (const pair of value.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [feature, engine = ''] = pair.split('=').map((s) => s.trim());
    if (!isFeature(feature)) {
      ctx.addIssue({ code: 'custom', message: `unknown feature "${feature}"; features are ${FEATURES.join(', ')}` });
      return z.NEVER;
    }
    if (engine !== '') map[feature] = engine;
  }
  return map;
});

export const taskEnvShape = {
  ENGINES: engineMap.default(engineMap.parse(DEFAULT_ENGINES)),
  TASK_WORKERS: z.coerce.number().int().min(1).max(256).default(TASK_LIMITS.workerConcurrency),
  TASK_USER_CONCURRENCY: z.coerce.number().int().min(1).default(TASK_LIMITS.perUserConcurrent),
  TASK_TIMEOUT_MS: z.coerce.number().int().min(1000).default(TASK_LIMITS.runTimeoutMs),
  TASK_POLL_MS: z.coerce.number().int().min(10).default(TASK_LIMITS.pollIntervalMs),
  MEDIA_DIR: z.string().min(1).optional(),
  MEDIA_RETENTION_DAYS: z.coerce.number().positive().default(MEDIA_LIMITS.retentionMs / DAY_MS),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(RATE_LIMITS.publicPerWindow),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).default(WEBHOOKS.baseDelayMs),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(WEBHOOKS.maxAttempts),
  WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1').default(false),
};

export interface TaskConfig {
  /** feature → engine name; a feature missing here is refused at submit. */
  engines: Partial<Record<Feature, string>>;
  workers: number;
  perUserConcurrent: number;
  runTimeoutMs: number;
  pollMs: number;
  mediaDir: string;
  retentionMs: number;
  rateLimitPerMinute: number;
  webhookRetryBaseMs: number;
  webhookMaxAttempts: number;
  /** Lets callbackUrl point at localhost and private networks (tests, local development); off in production. */
  webhookAllowPrivate: boolean;
}

type TaskEnv = z.infer<z.ZodObject<typeof taskEnvShape>>;

export function taskConfig(e: TaskEnv, dataDir: string): TaskConfig {
  return {
    engines: e.ENGINES,
    workers: e.TASK_WORKERS,
    perUserConcurrent: e.TASK_USER_CONCURRENCY,
    runTimeoutMs: e.TASK_TIMEOUT_MS,
    pollMs: e.TASK_POLL_MS,
    mediaDir: path.resolve(e.MEDIA_DIR ?? path.join(dataDir, 'media')),
    retentionMs: Math.round(e.MEDIA_RETENTION_DAYS * DAY_MS),
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    webhookRetryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
    webhookMaxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
  };
}
