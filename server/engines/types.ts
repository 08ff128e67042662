// The one interface every generation engine implements, local or a provider adapter.
import type { Feature, MediaKind, PriceInput, RunOption } from '../../src/lib/spec';

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
  /** Speech-to-text results: the transcript. */
  text?: string;
}

/** An input file of a task, fetched and recognised by its bytes. */
export interface InputMedia {
  data: Buffer;
  mime: string;
  kind: MediaKind;
  durationS: number | null;
  /** Where it came from (a provider that fetches URLs itself may pass it on). */
  url: string;
}

export interface EngineContext {
  /** Aborted when the task is canceled or times out; long engines should stop early. */
  signal: AbortSignal;
  /** Reports progress 0–100. */
  progress(percent: number): Promise<void>;
  /** Fetches an input URL (this server's media or an outside http(s) URL) and checks it is one of `kinds`. */
  readInput(url: string, kinds: readonly MediaKind[]): Promise<InputMedia>;
  /** The task's id (providers use it to name uploads and as an idempotency reference). */
  taskId: string;
}

export interface Engine {
  /** Name used in configuration (ENGINES=feature=name) and recorded on each task. */
  name: string;
  /** Features this engine can serve. */
  features: readonly Feature[];
  run(feature: Feature, input: unknown, ctx: EngineContext): Promise<EngineResult>;
  /** Advanced settings it honours per feature (src/lib/spec/run-options.ts); a feature not listed honours none. */
  options?: Partial<Record<Feature, readonly RunOption[]>>;
  /** Languages (primary subtags) whose voices it can speak per feature; a feature not listed speaks every voice. */
  languages?: Partial<Record<Feature, readonly string[]>>;
  /** Null when the engine can run here, else why not (e.g. no ffmpeg, no API key); submit refuses with it. */
  unavailable?(): string | null;
}

/** Bytes of a file made or fetched during a run (not yet stored). */
export interface MediaBytes {
  data: Buffer;
  mime: string;
}

/** Re-times a video's lips to an audio track (another engine's lip-sync model); dubbing with lip sync uses it. */
export type LipSync = (video: MediaBytes, audio: MediaBytes, ctx: EngineContext) => Promise<EngineOutput>;

/**
 * This engine cannot serve this particular request (e.g. a sample avatar model only the preview engine can draw):
 * not the user's fault, so the next engine of the feature is tried; with none left the task fails and is refunded.
 */
export class EngineUnsupportedError extends Error {
  override name = 'EngineUnsupportedError';
}

/** A failure of the input rather than the platform: the task fails, credits are still refunded. */
export class EngineInputError extends Error {
  override name = 'EngineInputError';
  constructor(
    message: string,
    /** The input field at fault, when the engine or its provider names one. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * The engine cannot serve anything for now (its provider's quota, billing, key or capacity): not the input's fault,
 * so the next engine of the feature is tried. `message` is for the people calling; `detail` only for the operator's log.
 */
export class EngineUnavailableError extends Error {
  override name = 'EngineUnavailableError';
  constructor(
    message: string,
    readonly detail: string,
    /** How long the engine should stay out of its features' chains. */
    readonly forMs: number,
  ) {
    super(message);
  }
}
