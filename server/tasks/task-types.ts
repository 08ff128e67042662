// Shapes the task service, its runner and its input checks share: a stored output, the input reader and the finish
// call.
import type { EngineContext, ProviderCost } from '../engines';
import type { TaskStatus } from '../../src/lib/product-rules';

export interface StoredOutput {
  media: string[];
  cloneId?: string;
  /** Transcript of a speech-to-text task. */
  text?: string;
}

/**
 * Fetches input media for engines and, at submit, for measuring the length a task is charged on
 * (server/tasks/input-media.ts).
 */
export type ReadInput = (
  url: string,
  kinds: Parameters<EngineContext['readInput']>[1],
  signal: AbortSignal,
) => ReturnType<EngineContext['readInput']>;

/**
 * The service's one way to end a task: sets the outcome and moves credits together; false when it was no longer in
 * `from`, or, given `attempt`, when another attempt has taken the task over since.
 */
export type FinishTask = (
  id: string,
  outcome:
    | { status: 'succeeded'; output: StoredOutput; charge: number; engine?: string; costs?: ProviderCost[] }
    | { status: 'failed'; error: string },
  from: TaskStatus[],
  attempt?: number,
) => Promise<boolean>;
