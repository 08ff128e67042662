// An engine's outage after provider account or capacity trouble: noted once with the operator's detail, answered by the
// engine's unavailable() until it passes.
import type { Logger } from '../../log';
import { EngineUnavailableError } from '../types';

export interface Outages {
  /** Takes the engine out of its features' chains for error.forMs; the detail goes to the operator's log only. */
  note(error: EngineUnavailableError): void;
  /** Runs `call`; an EngineUnavailableError it ends with is noted, then passed on (the task falls back or fails). */
  watch<T>(call: () => Promise<T>): Promise<T>;
  /**
   * Null while the engine can serve; during an outage, why not (for the operator: /healthz, the submit refusal's hint).
   */
  current(): string | null;
}

/** The outage state of one engine (`engine` as configured in ENGINES, `provider` as people know it). */
export function outageTracker(engine: string, provider: string, log: Pick<Logger, 'warn'>): Outages {
  let outage: { until: number; detail: string } | null = null;
  const note = (error: EngineUnavailableError): void => {
    outage = { until: Date.now() + error.forMs, detail: error.detail };
    log.warn(`${provider} cannot serve requests for now; its features fall back to their next engine`, {
      engine,
      detail: error.detail,
      forS: Math.round(error.forMs / 1000),
    });
  };
  return {
    note,
    async watch(call) {
      try {
        return await call();
      } catch (error) {
        if (error instanceof EngineUnavailableError) note(error);
        throw error;
      }
    },
    current() {
      if (!outage || Date.now() >= outage.until) return null;
      return `${outage.detail} (engine out of its features' chains until ${new Date(outage.until).toISOString()})`;
    },
  };
}
