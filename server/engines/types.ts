// The one interface every generation engine implements, local or a provider adapter.
import type { Feature, MediaKind, PriceInput, RunOption } from '../../src/lib/product-rules';
import type { ProviderCost } from './provider-cost';

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
  /**
   * What making it cost at the provider(s), one entry per provider call that bills (recorded when the task settles).
   */
  providerCosts?: ProviderCost[];
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
  /**
   * The provider jobs this run waits on, kept with the task so another attempt resumes them instead of paying twice.
   */
  providerJobs: ProviderJobs;
}

/**
 * A run's provider jobs, each by a name unique within the engine's run (e.g. 'job', 'dubbing', 'lip-sync'). The task
 * layer cancels them through Engine.cancelJob when the task ends without its result; a run hands its jobs on, never
 * cancels them itself, since an abort may mean the task is handed back and another attempt resumes the job.
 */
export interface ProviderJobs {
  /**
   * Stores the job's reference (JSON-serialisable) for this attempt, as soon as the provider accepted the submit.
   * Throws ProviderJobOrphaned when this attempt no longer holds the task; the job has then been canceled.
   */
  record(name: string, ref: unknown): Promise<void>;
  /**
   * The reference a run of this task recorded under `name` (an earlier attempt's, when this one is a restart, a
   * hand-back or a takeover) for a job that may still run, now owned by this attempt; null when there is none. Outside
   * input: the engine validates it.
   */
  earlier(name: string): Promise<unknown>;
}

/** This attempt lost its task (canceled, handed back, taken over) before it could record its job: it stops. */
export class ProviderJobOrphaned extends Error {
  override name = 'ProviderJobOrphaned';
}

export interface Engine {
  /** Name used in configuration (ENGINES=feature=name) and recorded on each task. */
  name: string;
  /** Features this engine can serve. */
  features: readonly Feature[];
  run(feature: Feature, input: unknown, ctx: EngineContext): Promise<EngineResult>;
  /**
   * Advanced settings it honours per feature (src/lib/product-rules/run-options.ts); a feature not listed honours none.
   */
  options?: Partial<Record<Feature, readonly RunOption[]>>;
  /** Languages (primary subtags) whose voices it can speak per feature; a feature not listed speaks every voice. */
  languages?: Partial<Record<Feature, readonly string[]>>;
  /** Null when the engine can run here, else why not (e.g. no ffmpeg, no API key); submit refuses with it. */
  unavailable?(): string | null;
  /**
   * Cancels (or deletes) a job it recorded through ctx.providerJobs, from the stored reference alone (any process,
   * after a restart). Best effort, never throws: the task is already over on our side.
   */
  cancelJob?(name: string, ref: unknown): Promise<void>;
}

/** Bytes of a file made or fetched during a run (not yet stored). */
export interface MediaBytes {
  data: Buffer;
  mime: string;
}

/** Re-times a video's lips to an audio track (another engine's lip-sync model); dubbing with lip sync uses it. */
export interface LipSync {
  /**
   * The re-timed video, with what the lip-sync call cost (the chaining engine adds it to its result's providerCosts).
   */
  (video: MediaBytes, audio: MediaBytes, ctx: EngineContext): Promise<EngineOutput & { providerCost?: ProviderCost }>;
  /** Cancels a job it recorded (names start with `lip-sync`); the engine that chains it passes these on. */
  cancelJob?(name: string, ref: unknown): Promise<void>;
}

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
 * The engine cannot serve anything for now (its provider's quota, billing, key or capacity): not the input's fault, so
 * the next engine of the feature is tried. `message` is for the people calling; `detail` only for the operator's log.
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
