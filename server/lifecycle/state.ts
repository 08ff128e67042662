// Where a process is in its life: serving, or draining after SIGTERM (readiness answers 503 from the first moment).
export interface Lifecycle {
  /** Set by the drain; /readyz reports not ready from then on. */
  draining: boolean;
}

export function createLifecycle(): Lifecycle {
  return { draining: false };
}
