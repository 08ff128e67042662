// Per-device and per-address budgets of the collector's calls (docs/tracking-protocol.md "Limits"): 429 with
// Retry-After over one.
import {
  TRACKING_BATCH_LIMITS,
  TRACKING_ERROR_CODES,
  TRACKING_LIMIT_MESSAGES,
  TRACKING_MESSAGE_LIMITS,
  TRACKING_MONITOR_LIMITS,
  TRACKING_TOKEN_LIMITS,
} from '../../src/lib/product-rules';
import { AppError } from '../http/errors';
import { memoryRateLimitStore, type RateLimitStore } from '../http/rate-limit';

export interface Sender {
  /** The client's budget key (server/http/rate-limit.ts clientBudgetKey: the IP, an IPv6 address by its /64). */
  ip: string;
  appKey: string;
  deviceId: string;
}

/** One call's budgets: always per device and window; per address and per device and day where the call has them. */
export interface Budget {
  windowMs: number;
  perDevicePerWindow: number;
  perIpPerWindow?: number;
  perDevicePerDay?: number;
  dayMs?: number;
}

export interface BudgetMessages {
  device: string;
  ip?: string;
  day?: string;
}

/**
 * Counts one call's hits in `store`. The device's own budget is checked first, so one looping browser is refused
 * without spending the budget of the other devices behind its address; device ids are free to invent, so the address
 * has a budget too. A sender without a device id is counted by its address, so such senders neither pool into one
 * shared budget nor can an empty id be used to exhaust it for everyone.
 */
export function budgetLimiter(name: string, budget: Budget, messages: BudgetMessages, store: RateLimitStore) {
  const over = async (key: string, windowMs: number, limit: number, message: string, now: number) => {
    const { count, resetAt } = await store.hit(`tracking-${name}:${key}`, windowMs, now);
    if (count <= limit) return;
    const retryAfterS = Math.max(1, Math.ceil((resetAt - now) / 1000));
    throw new AppError(429, TRACKING_ERROR_CODES.rateLimited, message, { 'Retry-After': String(retryAfterS) });
  };
  return {
    /** Counts one call; throws a 429 (Retry-After set) when the sender is over a budget. */
    async admit(sender: Sender, now: number): Promise<void> {
      const device = sender.deviceId === '' ? `ip ${sender.ip}` : `${sender.appKey}\n${sender.deviceId}`;
      await over(`device:${device}`, budget.windowMs, budget.perDevicePerWindow, messages.device, now);
      if (budget.perIpPerWindow !== undefined) {
        await over(`ip:${sender.ip}`, budget.windowMs, budget.perIpPerWindow, messages.ip ?? messages.device, now);
      }
      if (budget.perDevicePerDay !== undefined && budget.dayMs !== undefined) {
        await over(`day:${device}`, budget.dayMs, budget.perDevicePerDay, messages.day ?? messages.device, now);
      }
    },
  };
}

export type BudgetLimiter = ReturnType<typeof budgetLimiter>;

/**
 * The budgets of every collector call, counted in `store` (this process's memory by default; a shared store makes
 * them hold across instances). Keys are prefixed per call, so one store serves them all.
 */
export function collectorBudgets(store: RateLimitStore = memoryRateLimitStore()) {
  return {
    accessToken: budgetLimiter('token', TRACKING_TOKEN_LIMITS, TRACKING_LIMIT_MESSAGES.accessToken, store),
    trackInfo: budgetLimiter('batch', TRACKING_BATCH_LIMITS, TRACKING_LIMIT_MESSAGES.trackInfo, store),
    message: budgetLimiter('message', TRACKING_MESSAGE_LIMITS, TRACKING_LIMIT_MESSAGES.message, store),
    monitor: budgetLimiter('monitor', TRACKING_MONITOR_LIMITS, TRACKING_LIMIT_MESSAGES.monitor, store),
  };
}

export type CollectorBudgets = ReturnType<typeof collectorBudgets>;
