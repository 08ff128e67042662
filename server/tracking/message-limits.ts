// Limits of the message endpoint (SPEC.md §7 report/message), which needs no token: per device id and per client IP each minute, per device each day.
import { TRACKING_ERROR_CODES, TRACKING_LIMIT_MESSAGES, TRACKING_MESSAGE_LIMITS as LIMITS } from '../../src/lib/spec/tracking';
import { AppError } from '../http/errors';
import { memoryRateLimitStore, type RateLimitStore } from '../http/rate-limit';

export interface MessageSender {
  /** The client's budget key (server/http/rate-limit.ts clientBudgetKey: the IP, an IPv6 address by its /64). */
  ip: string;
  appKey: string;
  deviceId: string;
}

/**
 * Counts messages in `store` (this process's memory by default; a shared store makes the budgets hold across
 * instances). The device's own budget is checked first, so one looping browser is refused without spending the
 * budget of the other devices behind its address; device ids are free to invent, so the address has a budget too.
 */
export function messageLimiter(store: RateLimitStore = memoryRateLimitStore()) {
  const over = async (key: string, windowMs: number, limit: number, message: string, now: number) => {
    const { count, resetAt } = await store.hit(key, windowMs, now);
    if (count <= limit) return;
    const retryAfterS = Math.max(1, Math.ceil((resetAt - now) / 1000));
    throw new AppError(429, TRACKING_ERROR_CODES.rateLimited, message, { 'Retry-After': String(retryAfterS) });
  };
  return {
    /** Counts one message; throws a 429 (Retry-After set) when the sender is over a budget. */
    async admit(sender: MessageSender, now: number): Promise<void> {
      const device = `${sender.appKey}\n${sender.deviceId}`;
      await over(`tracking-message:device:${device}`, LIMITS.windowMs, LIMITS.perDevicePerWindow, TRACKING_LIMIT_MESSAGES.device, now);
      await over(`tracking-message:ip:${sender.ip}`, LIMITS.windowMs, LIMITS.perIpPerWindow, TRACKING_LIMIT_MESSAGES.ip, now);
      await over(`tracking-message:day:${device}`, LIMITS.dayMs, LIMITS.perDevicePerDay, TRACKING_LIMIT_MESSAGES.day, now);
    },
  };
}

export type MessageLimiter = ReturnType<typeof messageLimiter>;
