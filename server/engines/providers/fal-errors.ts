// What a failed fal call means for the task: the official client's ApiError (status and body) and transport failures in
// our reasons; account and capacity trouble make the engine unavailable.
import { ApiError } from '@fal-ai/client';
import { FAL_ACCOUNT_TROUBLE, FAL_INPUT_FIELDS, PROVIDER_UNAVAILABLE } from '../../../src/lib/product-rules';
import { EngineInputError, EngineUnavailableError } from '../types';
import { abortReason, describeError } from './fal-client';
import { ProviderError } from './http';
import { fieldProblems, problemsText } from './validation';

const PROVIDER = 'fal.ai';

/** Which call failed: a refused result is the job's own failure, a refused submit or upload is ours to explain. */
export type FalCall = 'submit' | 'status' | 'result' | 'upload';

/** fal's error body in a sentence: `detail` (a string or FastAPI's list of problems), else the body or message. */
export function falDetail(body: unknown, fallback = ''): string {
  const detail =
    body && typeof body === 'object' && 'detail' in body ? (body as { detail: unknown }).detail : (body ?? fallback);
  return (typeof detail === 'string' ? detail : (JSON.stringify(detail) ?? fallback)).slice(0, 300);
}

/** A refused key (401, 403) or unpaid use (402, "Payment Required"): the account, not the request, is at fault. */
const ACCOUNT_STATUSES = new Set([401, 402, 403]);

/**
 * What fal-js's client retries (libs/client/src/retry.ts DEFAULT_RETRYABLE_STATUS_CODES at
 * 381105e138b85502b528fb8f6c16d909e30e462a): still answered after its retries, fal has no room for us for now.
 */
const BUSY_STATUSES = new Set([429, 502, 503, 504]);

/** A 400/422 as our input error: each FastAPI problem under our field name, the first named as the field at fault. */
function inputRefused(body: unknown, why: string): EngineInputError {
  const detail =
    body && typeof body === 'object' && 'detail' in body ? (body as { detail: unknown }).detail : undefined;
  const problems = fieldProblems(detail, FAL_INPUT_FIELDS);
  if (problems.length === 0) return new EngineInputError(`${PROVIDER} refused the input: ${why}`);
  return new EngineInputError(`${PROVIDER} refused the input: ${problemsText(problems)}`, problems[0]!.field);
}

/**
 * fal's refusal of a call, read by its status and detail. A locked account, a refused key or unpaid use make the engine
 * unavailable until someone acts; fal still busy after the client's retries makes it unavailable for a minute. People
 * read PROVIDER_UNAVAILABLE's message; the status and fal's words go to the operator's log only (outages.ts).
 */
export function falRefusal(status: number, body: unknown, call: FalCall, fallback = ''): Error {
  const why = falDetail(body, fallback);
  const detail = `${PROVIDER} answered ${status} to a ${call} call: ${why || '(no detail)'}`;
  if (ACCOUNT_STATUSES.has(status) || FAL_ACCOUNT_TROUBLE.test(why))
    return new EngineUnavailableError(PROVIDER_UNAVAILABLE.message(PROVIDER), detail, PROVIDER_UNAVAILABLE.accountMs);
  // A result's other statuses are the job's own failure (the model refused or crashed on this input), not fal's room.
  if (call === 'result')
    return status === 422 ? inputRefused(body, why) : new ProviderError(`${PROVIDER} job failed: ${why}`);
  if (BUSY_STATUSES.has(status))
    return new EngineUnavailableError(PROVIDER_UNAVAILABLE.message(PROVIDER), detail, PROVIDER_UNAVAILABLE.capacityMs);
  if (status === 400 || status === 422) return inputRefused(body, why);
  return new ProviderError(`${PROVIDER} answered ${status}: ${why}`);
}

/**
 * The error a fal call ends with. Ours (a submit not re-sent, an unknown host) pass as they are; an abort is the run's
 * (a timeout or a hand-back); a 404 of a resumed job is `missing`; a refusal is read by falRefusal; anything else means
 * fal could not be reached.
 */
export function falFailure(error: unknown, call: FalCall, signal: AbortSignal, missing?: () => Error): Error {
  if (signal.aborted) return abortReason(signal);
  if (error instanceof ProviderError || error instanceof EngineInputError) return error;
  if (!(error instanceof ApiError)) return new ProviderError(`could not reach ${PROVIDER} (${describeError(error)})`);
  if (error.status === 404 && missing) return missing();
  return falRefusal(error.status, error.body, call, error.message);
}

/** Runs one client call, its failure turned into our reason. */
export async function falCall<T>(
  call: FalCall,
  signal: AbortSignal,
  run: () => Promise<T>,
  missing?: () => Error,
): Promise<T> {
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
