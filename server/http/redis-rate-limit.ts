// Request budgets counted in Redis, so every instance shares them (docs/configuration.md REDIS_URL, docs/security.md
// "Rate limits").
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { RATE_LIMITS } from '../../src/lib/product-rules';
import type { Logger } from '../log';
import { memoryRateLimitStore, type RateLimitStore } from './rate-limit';

/** The budget stores of the app: one per use (its keys in a namespace of their own), and what closes them. */
export interface RateLimitStores {
  store(namespace: string): RateLimitStore;
  close(): Promise<void>;
  /** With REDIS_URL: resolves when Redis answers a PING (readiness); absent without Redis. */
  ping?(): Promise<void>;
}

/**
 * Fixed windows in Redis with the memory store's contract, counted by rate-limiter-flexible's RateLimiterRedis: its
 * one atomic script starts a window with the first hit (SET NX EX) and counts later hits in it (INCRBY), so instances
 * hitting one key at once neither both start a window nor lose a hit. The answer's `resetAt` is `now` plus the time
 * Redis has left on the window. Redis keeps windows in whole seconds (EX): `windowMs` is rounded down, to at least
 * one second (every budget window is whole minutes, src/lib/product-rules RATE_LIMITS, TRACKING_*_LIMITS).
 *
 * When Redis does not answer within RATE_LIMITS.sharedTimeoutMs (the connection's commandTimeout), or is known to be
 * down, the hit is counted in `fallback` (this process's memory) instead: budgets then hold per process, as without
 * Redis, rather than refusing everyone or nobody (docs/security.md "Rate limits"). `onError` hears each failure.
 * The library's own insuranceLimiter is not used: it would swallow the failure (no warning), and its
 * RateLimiterMemory keeps a timer per key and no bound on keys, where memoryRateLimitStore keeps at most its maxKeys.
 * Nor is rejectIfRedisNotReady: it also refuses while the first connection is still being made, which would count
 * the first hits after start in memory and warn of an outage that is none.
 */
export function redisRateLimitStore(
  redis: Redis,
  o: { keyPrefix: string; fallback: RateLimitStore; onError(error: unknown): void },
): RateLimitStore {
  // The library counts points against a limit; the limit is the middleware's, so the store only counts (never refuses).
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: o.keyPrefix,
    points: Number.MAX_SAFE_INTEGER,
    duration: 1,
  });
  return {
    async hit(key, windowMs, now) {
      // Down for a while: answer from memory at once instead of making every request wait for the timeout.
      if (redis.status === 'reconnecting' || redis.status === 'close' || redis.status === 'end') {
        o.onError(new Error(`Redis connection is ${redis.status}`));
        return o.fallback.hit(key, windowMs, now);
      }
      try {
        const res = await limiter.consume(key, 1, { customDuration: Math.max(1, Math.floor(windowMs / 1000)) });
        return { count: res.consumedPoints, resetAt: now + res.msBeforeNext };
      } catch (error) {
        o.onError(error);
        return o.fallback.hit(key, windowMs, now);
      }
    },
  };
}

/** Where budgets are shared (REDIS_URL, REDIS_PREFIX); null counts them in this process's memory. Described here, not
 * imported from the server configuration, so the http area does not depend on the configuration that depends on it. */
export type SharedCounterSettings = { url: string; prefix: string } | null;

/**
 * The stores the app counts its budgets in. Without `redis` each is this process's memory. With it, one connection
 * serves them all, keys under `<REDIS_PREFIX>rate:<namespace>:` (the library joins prefix and key with ':'); while
 * Redis is unreachable a warning is logged at most once per RATE_LIMITS.sharedWarnEveryMs, and one line when it answers
 * again. RATE_LIMITS.sharedTimeoutMs is the connection's commandTimeout rather than the library's RLWrapperTimeouts:
 * ioredis rejects the command itself at the deadline and one setting covers every command, the readiness PING too; the
 * wrapper would only add a second timer to each hit for the same deadline.
 */
export function openRateLimitStores(redis: SharedCounterSettings, log: Logger): RateLimitStores {
  if (!redis) return { store: () => memoryRateLimitStore(), close: async () => {} };
  const connection = new Redis(redis.url, {
    // Requests must not queue behind a dead connection: one retry, a short deadline, then the memory fallback.
    maxRetriesPerRequest: 1,
    commandTimeout: RATE_LIMITS.sharedTimeoutMs,
    connectTimeout: RATE_LIMITS.sharedTimeoutMs * 4,
  });
  let lastWarning = -Infinity;
  let failing = false;
  const onError = (error: unknown) => {
    failing = true;
    const now = Date.now();
    if (now - lastWarning < RATE_LIMITS.sharedWarnEveryMs) return;
    lastWarning = now;
    log.warn('Redis unreachable: request budgets are counted per process until it answers', {
      error: error instanceof Error ? error.message : String(error),
    });
  };
  connection.on('error', onError);
  connection.on('ready', () => {
    if (failing) log.info('Redis answers again: request budgets are shared');
    failing = false;
  });
  return {
    store: (namespace) =>
      redisRateLimitStore(connection, {
        keyPrefix: `${redis.prefix}rate:${namespace}`,
        fallback: memoryRateLimitStore(),
        onError,
      }),
    async ping() {
      await connection.ping();
    },
    async close() {
      if (connection.status === 'ready') {
        await connection.quit().catch(() => connection.disconnect());
      } else {
        connection.disconnect();
      }
    },
  };
}
