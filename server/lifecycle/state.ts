// Where a process is in its life: serving, paused for an outage (a worker), or draining after SIGTERM (readiness
// answers 503 from the first moment).
export interface Lifecycle {
  /** Set by the drain; /readyz reports not ready from then on. */
  draining: boolean;
  /**
   * A worker that stopped taking jobs, with each dependency that does not answer and why (server/lifecycle/pause.ts);
   * absent or null while it takes them.
   */
  paused?: Record<string, string> | null;
}

export function createLifecycle(): Lifecycle {
  return { draining: false, paused: null };
}
