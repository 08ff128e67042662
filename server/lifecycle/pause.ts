// A worker stops taking jobs while its database or media store does not answer, and takes them again once both do;
// /readyz says why meanwhile.
import type { Logger } from '../log';
import { OUTAGES, READINESS } from '../../src/lib/product-rules';
import { runChecks, type Check } from './readiness';
import type { Lifecycle } from './state';

export interface WorkPauseOptions {
  lifecycle: Lifecycle;
  /** What the worker needs to finish a job, by name (the readiness checks of the database, job queue and S3). */
  checks: Record<string, Check>;
  /** Stop and restart fetching jobs (the job queue's pause and resume). */
  queue: { pause(): Promise<void>; resume(): Promise<void> };
  log: Logger;
  /** OUTAGES.workCheckMs unless given (tests). */
  intervalMs?: number;
}

/**
 * Checks every intervalMs. A job fetched while a dependency is away would spend one of its task's attempts on the
 * outage (or, with the store away, sit on disk waiting for its upload); so fetching stops, running jobs go on, and
 * the reasons are on the lifecycle for /readyz. Nothing changes once the process drains.
 */
export function startWorkPause(o: WorkPauseOptions): { stop(): Promise<void>; check(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let checking: Promise<void> | undefined;

  async function checkOnce(): Promise<void> {
    const results = await runChecks(o.checks);
    if (stopped || o.lifecycle.draining) return;
    const down = Object.fromEntries(
      Object.entries(results)
        .filter(([, r]) => !r.up)
        .map(([name, r]) => [name, r.error ?? `no answer within ${READINESS.checkTimeoutMs} ms`]),
    );
    const wasPaused = Boolean(o.lifecycle.paused);
    if (Object.keys(down).length > 0) {
      o.lifecycle.paused = down;
      if (!wasPaused) {
        o.log.warn('worker stops taking jobs until its dependencies answer', down);
        await o.queue
          .pause()
          .catch((error: unknown) => o.log.warn('pausing job fetch failed', { error: String(error) }));
      }
    } else if (wasPaused) {
      o.lifecycle.paused = null;
      o.log.info('worker takes jobs again: its dependencies answer');
      await o.queue.resume().catch((error: unknown) => {
        // Fetching could not restart: stay paused, the next check tries again.
        o.lifecycle.paused = { queue: `restarting job fetch failed: ${String(error)}` };
      });
    }
  }

  function check(): Promise<void> {
    checking ??= checkOnce().finally(() => (checking = undefined));
    return checking;
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void check().finally(schedule), o.intervalMs ?? OUTAGES.workCheckMs);
    timer.unref();
  };
  schedule();
  return {
    check,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await checking;
    },
  };
}
