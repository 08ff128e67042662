// The one interface every generation engine implements, local or a provider adapter.
import type { Feature, MediaKind, PriceInput } from '../../src/lib/spec/tasks';

export interface EngineOutput {
  kind: MediaKind;
  mime: string;
  data: Buffer;
  /** Real length in seconds for audio and video (per-second features are settled on it). */
  durationS: number | null;
}

export interface EngineResult {
  outputs: EngineOutput[];
  /** What the result measured for settling, e.g. { seconds } of produced video; merged over the estimate. */
  measured?: PriceInput;
  /** Voice clone results (DreamAPI cloneId). */
  cloneId?: string;
}

export interface EngineContext {
  /** Aborted when the task is canceled or times out; long engines should stop early. */
  signal: AbortSignal;
  /** Reports progress 0–100. */
  progress(percent: number): Promise<void>;
}

export interface Engine {
  /** Name used in configuration (ENGINES=feature=name) and recorded on each task. */
  name: string;
  /** Features this engine can serve. */
  features: readonly Feature[];
  run(feature: Feature, input: unknown, ctx: EngineContext): Promise<EngineResult>;
}

/** A failure of the input rather than the platform: the task fails, credits are still refunded. */
export class EngineInputError extends Error {
  override name = 'EngineInputError';
}
