// Environment variables of the shared counters (REDIS_URL, REDIS_PREFIX; merged into the server configuration in
// index.ts).
import { z } from 'zod';
import { RATE_LIMITS } from '../../src/lib/product-rules';

export const redisEnvShape = {
  /** Unset: request budgets are counted in each process's memory (docs/configuration.md). */
  REDIS_URL: z
    .url()
    .refine((v) => /^rediss?:\/\//.test(v), 'must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379')
    .optional(),
  REDIS_PREFIX: z
    .string()
    .max(100)
    .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII characters without spaces, e.g. dreamapi:')
    .default(RATE_LIMITS.sharedPrefix),
};

/** Where the request budgets of every instance are counted; null counts them in this process's memory. */
export type RedisConfig = { url: string; prefix: string } | null;

type RedisEnv = z.infer<z.ZodObject<typeof redisEnvShape>>;

export function redisConfig(e: RedisEnv): RedisConfig {
  return e.REDIS_URL ? { url: e.REDIS_URL, prefix: e.REDIS_PREFIX } : null;
}
