// When a failed tracking send is tried again: a jittered backoff or the collector's Retry-After, one retry at a time,
// run at once when the network returns (SPEC.md §8).
import { TRACKING_ERROR_CODES, TRACKING_RETRY } from '../product-rules';
import type { Answer } from './types';

/**
 * The wait before the next try of a failed send: TRACKING_RETRY's jittered backoff after `failures` failures in a row,
 * never over capMs.
 */
export function retryDelay(failures: number, capMs: number, random: () => number = Math.random): number {
  const { firstDelayMs, factor, jitter } = TRACKING_RETRY;
  const base = Math.min(firstDelayMs * factor ** failures, capMs);
  return Math.round(Math.min(base * (1 + jitter * (2 * random() - 1)), capMs));
}

/**
 * The wait an HTTP Retry-After header asks for, in ms: delay-seconds or an HTTP date, at most
 * TRACKING_RETRY.retryAfterMaxMs; 0 when the header is missing, unreadable or already past.
 */
export function retryAfterMs(header: string | null | undefined, now: number): number {
  const value = header?.trim() ?? '';
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : value === '' ? 0 : Date.parse(value) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), TRACKING_RETRY.retryAfterMaxMs) : 0;
}

/** Holds the one retry that may wait or run at a time, and the failures in a row that set its wait. */
export class RetryClock {
  /** Set while a retry waits or is in flight: no other send starts meanwhile. */
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Runs the waiting retry at once (the browser came back online); null when none waits. */
  private runNow: (() => Promise<void>) | null = null;
  /**
   * Failed sends in a row: how long the next retry waits. Back to 0 after a send goes through or the network returns.
   */
  private failures = 0;
  /** A collector's Retry-After for the next retry (0: none); the retry scheduled next takes it. */
  private notBeforeMs = 0;
  /** The waiting retry obeys a Retry-After: the network returning does not make it run early. */
  private held = false;

  constructor(private readonly random: () => number) {}

  /** True while a retry waits or is in flight. */
  get pending(): boolean {
    return this.timer !== null;
  }

  /**
   * True when the answer says the collector is over a budget (40029, or any HTTP 429): a "try later" like a network
   * failure, never a refusal, so the entries stay queued. The next retry then waits at least its Retry-After (the
   * backoff when it has none), even when the network returns meanwhile (docs/tracking-protocol.md "Retries").
   */
  overBudget(answer: Answer): boolean {
    if (answer.code !== TRACKING_ERROR_CODES.rateLimited && answer.retryAfterMs === undefined) return false;
    this.notBeforeMs = Math.max(this.notBeforeMs, answer.retryAfterMs ?? 0);
    return true;
  }

  /**
   * Runs `retry` after the backoff for the failures so far (never over capMs), or after the Retry-After of an
   * overBudget() answer when that is longer; it stays pending until settled().
   */
  schedule(capMs: number, retry: () => Promise<void>): void {
    const notBeforeMs = this.notBeforeMs;
    this.notBeforeMs = 0;
    const run = () => {
      clearTimeout(timer);
      this.runNow = null;
      this.held = false;
      return retry();
    };
    const timer = setTimeout(() => void run(), Math.max(retryDelay(this.failures++, capMs, this.random), notBeforeMs));
    this.timer = timer;
    this.runNow = run;
    this.held = notBeforeMs > 0;
  }

  /** The retry's send has its answer: other sends may start. */
  settled(): void {
    this.timer = null;
  }

  /** A send went through: the next failure waits the shortest time again. */
  reset(): void {
    this.failures = 0;
  }

  /** Drops a waiting retry (a retry in flight finishes). */
  cancel(): void {
    if (!this.runNow) return;
    clearTimeout(this.timer!);
    this.timer = this.runNow = null;
    this.held = false;
  }

  /** Runs the waiting retry now with the backoff started over; null when none waits or it waits out a Retry-After. */
  runWaiting(): Promise<void> | null {
    if (this.held) return null;
    this.failures = 0;
    return this.runNow ? this.runNow() : null;
  }
}
