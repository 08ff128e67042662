// Request budgets per caller: per account when the credentials are valid, else per client IP (docs/security.md "Rate
// limits").
import ipaddr from 'ipaddr.js';
import type { Context, MiddlewareHandler } from 'hono';
import { ERROR_CODES, RATE_LIMITS, TASK_MESSAGES } from '../../src/lib/product-rules';
import { clientIp, type ProxyTrust } from './client-ip';
import { AppError } from './errors';

/** Where hits are counted. In memory by default; a shared store (e.g. Redis) lets several processes share budgets. */
export interface RateLimitStore {
  /**
   * Counts one hit on `key` in its current window of `windowMs` (started by the first hit); answers the hits so far and
   * when the window ends.
   */
  hit(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>;
}

/**
 * Fixed windows in this process's memory. A key that starts a new window is moved to the end of the map, so the
 * map stays in order of window start and finished windows are dropped from its front: constant work per hit
 * however many callers there are. Past `maxKeys` live windows the oldest are dropped too (their callers start a
 * fresh window), so invented device ids or addresses cannot grow memory without bound.
 */
export function memoryRateLimitStore(maxKeys = 100_000): RateLimitStore {
  const windows = new Map<string, { start: number; end: number; count: number }>();
  function prune(now: number) {
    for (const [k, v] of windows) {
      if (v.end > now && windows.size <= maxKeys) break;
      windows.delete(k);
    }
  }
  return {
    async hit(key, windowMs, now) {
      let w = windows.get(key);
      if (!w || now >= w.end) {
        windows.delete(key);
        w = { start: now, end: now + windowMs, count: 0 };
        windows.set(key, w);
        prune(now);
      }
      w.count += 1;
      return { count: w.count, resetAt: w.end };
    },
  };
}

const IPV6_BUDGET_PREFIX = 64;

/**
 * The budget key of an address: IPv4 (also IPv4-mapped IPv6) as is, IPv6 by its /64, because one customer is
 * usually handed a whole /64 and could otherwise take a fresh budget per address. Unparsable values stay as they are.
 */
export function ipBudgetKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, IPV6_BUDGET_PREFIX / 16);
  return `${parts.map((p) => p.toString(16)).join(':')}::/${IPV6_BUDGET_PREFIX}`;
}

/** The caller's IP budget key (client-ip.ts decides which address counts). */
export function clientBudgetKey(c: Context, trustProxy: ProxyTrust): string {
  return ipBudgetKey(clientIp(c, trustProxy));
}

export interface RateLimitOptions {
  limit: number;
  windowMs?: number;
  trustProxy: ProxyTrust;
  /**
   * The account behind the request's credentials, or undefined when there are none or they are wrong. Wrong
   * credentials count against the IP, so inventing keys never buys a fresh budget; the keys of one account share one.
   */
  account(c: Context): Promise<string | undefined>;
  store?: RateLimitStore;
  now?: () => number;
}

/** Fixed-window limit; X-RateLimit-Limit, -Remaining and -Reset go on every answer, Retry-After on a 429. */
export function rateLimit(o: RateLimitOptions): MiddlewareHandler {
  const store = o.store ?? memoryRateLimitStore();
  const windowMs = o.windowMs ?? RATE_LIMITS.windowMs;
  const clock = o.now ?? Date.now;
  return async (c, next) => {
    const now = clock();
    const account = await o.account(c);
    const who = account ? `user:${account}` : `ip:${clientBudgetKey(c, o.trustProxy)}`;
    const { count, resetAt } = await store.hit(who, windowMs, now);
    const resetS = Math.ceil(resetAt / 1000);
    const headers = {
      'X-RateLimit-Limit': String(o.limit),
      'X-RateLimit-Remaining': String(Math.max(0, o.limit - count)),
      'X-RateLimit-Reset': String(resetS),
    };
    if (count > o.limit) {
      throw new AppError(429, ERROR_CODES.rateLimited, TASK_MESSAGES.rateLimited, {
        ...headers,
        'Retry-After': String(Math.max(1, Math.ceil((resetAt - now) / 1000))),
      });
    }
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}
