// When a failed tracking send is tried again: a jittered backoff, one retry at a time, run at once when the network returns (SPEC.md §8).
import { TRACKING_RETRY } from '../spec/tracking';

/** The wait before the next try of a failed send: TRACKING_RETRY's jittered backoff after `failures` failures in a row, never over capMs. */
export function retryDelay(failures: number, capMs: number, random: () => number = Math.random): number {
  const { firstDelayMs, factor, jitter } = TRACKING_RETRY;
  const base = Math.min(firstDelayMs * factor ** failures, capMs);
  return Math.round(Math.min(base * (1 + jitter * (2 * random() - 1)), capMs));
}

/** Holds the one retry that may wait or run at a time, and the failures in a row that set its wait. */
export class RetryClock {
  /** Set while a retry waits or is in flight: no other send starts meanwhile. */
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Runs the waiting retry at once (the browser came back online); null when none waits. */
  private runNow: (() => Promise<void>) | null = null;
  /** Failed sends in a row: how long the next retry waits. Back to 0 after a send goes through or the network returns. */
  private failures = 0;

  constructor(private readonly random: () => number) {}

  /** True while a retry waits or is in flight. */
  get pending(): boolean {
    return this.timer !== null;
  }

  /** Runs `retry` after the backoff for the failures so far (never over capMs); it stays pending until settled(). */
  schedule(capMs: number, retry: () => Promise<void>): void {
    const run = () => {
      clearTimeout(timer);
      this.runNow = null;
      return retry();
    };
    const timer = setTimeout(() => void run(), retryDelay(this.failures++, capMs, this.random));
    this.timer = timer;
    this.runNow = run;
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
  }

  /** Runs the waiting retry now with the backoff started over; null when none waits. */
  runWaiting(): Promise<void> | null {
    this.failures = 0;
    return this.runNow ? this.runNow() : null;
  }
}
