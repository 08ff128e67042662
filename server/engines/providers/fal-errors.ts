// What a failed fal call means for the task: the official client's ApiError (status and body) and transport failures in our reasons.
import { ApiError } from '@fal-ai/client';
import { EngineInputError } from '../types';
import { abortReason, describeError } from './fal-client';
import { ProviderError } from './http';

const PROVIDER = 'fal.ai';

/** Which call failed: a refused result is the job's own failure, a refused submit or upload is ours to explain. */
export type FalCall = 'submit' | 'status' | 'result' | 'upload';

/** fal's error body in a sentence: `detail` (a string or FastAPI's list of problems), else the body or message. */
export function falDetail(body: unknown, fallback = ''): string {
  const detail = body && typeof body === 'object' && 'detail' in body ? (body as { detail: unknown }).detail : (body ?? fallback);
  return (typeof detail === 'string' ? detail : JSON.stringify(detail) ?? fallback).slice(0, 300);
}

/**
 * The error a fal call ends with. Ours (a submit not re-sent, an unknown host) pass as they are; an abort is the run's
 * (a timeout or a hand-back); a 404 of a resumed job is `missing`; a refusal is read by its status, the result's
 * 422 being a rejected input and its other statuses the job's failure; anything else means fal could not be reached.
 */
export function falFailure(error: unknown, call: FalCall, signal: AbortSignal, missing?: () => Error): Error {
  if (signal.aborted) return abortReason(signal);
  if (error instanceof ProviderError || error instanceof EngineInputError) return error;
  if (!(error instanceof ApiError)) return new ProviderError(`could not reach ${PROVIDER} (${describeError(error)})`);
  const status = error.status;
  const why = falDetail(error.body, error.message);
  if (status === 404 && missing) return missing();
  if (call === 'result') return status === 422 ? new EngineInputError(`${PROVIDER} refused the input: ${why}`) : new ProviderError(`${PROVIDER} job failed: ${why}`);
  if (status === 401 || status === 403) return new ProviderError(`${PROVIDER} refused the API key (${status}: ${why}); check its key in the configuration`);
  if (status === 400 || status === 422) return new EngineInputError(`${PROVIDER} refused the input: ${why}`);
  return new ProviderError(`${PROVIDER} answered ${status}: ${why}`);
}

/** Runs one client call, its failure turned into our reason. */
export async function falCall<T>(call: FalCall, signal: AbortSignal, run: () => Promise<T>, missing?: () => Error): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw falFailure(error, call, signal, missing);
  }
}

/** A client answer that should be a JSON object (the client hands back text when fal answered something else). */
export function falObject<T extends object>(value: unknown, what: string): T {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as T;
  throw new ProviderError(`${PROVIDER} sent a malformed answer (${what}): ${String(value).slice(0, 120) || '(empty)'}`);
}
