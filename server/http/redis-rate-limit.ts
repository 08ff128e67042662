// Request budgets counted in Redis, so every instance shares them (docs/configuration.md REDIS_URL, docs/security.md "Rate limits").
import { Redis } from 'ioredis';
import { RATE_LIMITS } from '../../src/lib/spec';
import type { Logger } from '../log';
import { memoryRateLimitStore, type RateLimitStore } from './rate-limit';

/**
 * One hit in one step, so instances counting the same key at once can neither both start a window nor lose a hit:
 * the first hit of a window sets its expiry, later ones only count. A key somehow left without an expiry gets one.
 * Answers the count and the milliseconds left in the window.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}
`;

type HitCommand = { rateLimitHit(key: string, windowMs: number): Promise<[number, number]> };

/** The budget stores of the app: one per use (its keys in a namespace of their own), and what closes them. */
export interface RateLimitStores {
  store(namespace: string): RateLimitStore;
  close(): Promise<void>;
  /** With REDIS_URL: resolves when Redis answers a PING (readiness); absent without Redis. */
  ping?(): Promise<void>;
}

/**
 * Fixed windows in Redis with the memory store's contract: the first hit starts a window of `windowMs`, later hits
 * count in it, the answer's `resetAt` is `now` plus the time Redis has left on it. When Redis does not answer within
 * RATE_LIMITS.sharedTimeoutMs, or is known to be down, the hit is counted in `fallback` (this process's memory)
 * instead: budgets then hold per process, as without Redis, rather than refusing everyone or nobody
 * (docs/security.md "Rate limits"). `onError` hears each failure.
 */
export function redisRateLimitStore(redis: Redis, o: { prefix: string; fallback: RateLimitStore; onError(error: unknown): void }): RateLimitStore {
  if (!('rateLimitHit' in redis)) redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  const command = redis as unknown as HitCommand;
  return {
    async hit(key, windowMs, now) {
      // Down for a while: answer from memory at once instead of making every request wait for the timeout.
      if (redis.status === 'reconnecting' || redis.status === 'close' || redis.status === 'end') {
        o.onError(new Error(`Redis connection is ${redis.status}`));
        return o.fallback.hit(key, windowMs, now);
      }
      try {
        const [count, left] = await command.rateLimitHit(`${o.prefix}${key}`, windowMs);
        return { count: Number(count), resetAt: now + Number(left) };
      } catch (error) {
        o.onError(error);
        return o.fallback.hit(key, windowMs, now);
      }
    },
  };
}

/**
 * The stores the app counts its budgets in. Without `redis` each is this process's memory. With it, one
 * connection serves them all, keys under `<REDIS_PREFIX>rate:<namespace>:`; while Redis is unreachable a warning is
 * logged at most once per RATE_LIMITS.sharedWarnEveryMs, and one line when it answers again.
 */
/** Where budgets are shared (REDIS_URL, REDIS_PREFIX); null counts them in this process's memory. Described here, not
 * imported from the server configuration, so the http area does not depend on the configuration that depends on it. */
export type SharedCounterSettings = { url: string; prefix: string } | null;

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
    store: (namespace) => redisRateLimitStore(connection, { prefix: `${redis.prefix}rate:${namespace}:`, fallback: memoryRateLimitStore(), onError }),
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
