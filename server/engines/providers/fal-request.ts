// fal queue calls that cost money or end one: a result read retried like fal's client retries it, a submit sent again only when it never reached fal.
import { FAL_RETRY, PROVIDER_RETRY } from '../../../src/lib/spec';
import { EngineInputError } from '../types';
import { ProviderError, retryAfterMs, sleep } from './http';

const PROVIDER = 'fal.ai';

/**
 * `read`: a GET that changes nothing (the result), retried on FAL_RETRY.readStatuses, timeouts and connection errors.
 * `submit`: starts a paid job, so it is sent again only when fal certainly did not take it: a 429 (refused, not queued)
 * or a connection that was never made. A 5xx, a timeout or a reset may come after fal queued the job.
 */
export type FalCallKind = 'read' | 'submit';

export interface FalCall {
  kind: FalCallKind;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** Error codes of a connection that was never opened, so no byte of the request reached fal (undici puts them on `cause`). */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function neverConnected(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NEVER_CONNECTED.has(code)) return true;
  }
  return false;
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
}

/** fal's error body in a sentence: `detail` (a string or FastAPI's list of problems), else the text. */
export function falDetail(text: string): string {
  try {
    const body = JSON.parse(text) as { detail?: unknown };
    const detail = body.detail ?? body;
    return (typeof detail === 'string' ? detail : JSON.stringify(detail)).slice(0, 300);
  } catch {
    return text.slice(0, 300);
  }
}

/** A final non-2xx answer of a submit in words: a bad key, a refused input, or fal's own failure. */
export function submitRefusal(status: number, text: string): Error {
  const why = falDetail(text);
  if (status === 401 || status === 403) return new ProviderError(`${PROVIDER} refused the API key (${status}: ${why}); check its key in the configuration`);
  if (status === 400 || status === 422) return new EngineInputError(`${PROVIDER} refused the input: ${why}`);
  return new ProviderError(`${PROVIDER} answered ${status}: ${why}`);
}

const notResent = (what: string) =>
  new ProviderError(`${PROVIDER} submit got no clear answer (${what}); it was not sent again, since fal may have queued the job and a second submit could start a second paid job`);

/**
 * Sends one fal call with a timeout per attempt and FAL_RETRY's rules, waiting as Retry-After asks or with exponential
 * backoff. Answers the first 2xx or final answer (the caller reads a non-2xx one); throws when the call gave up.
 */
export async function falFetch(call: FalCall): Promise<Response> {
  const retryStatuses: readonly number[] = call.kind === 'read' ? FAL_RETRY.readStatuses : FAL_RETRY.submitStatuses;
  let lastProblem = '';
  for (let attempt = 0; attempt < PROVIDER_RETRY.maxAttempts; attempt++) {
    let res: Response;
    try {
      res = await fetch(call.url, { method: call.method ?? 'GET', headers: call.headers, body: call.body, signal: AbortSignal.any([call.signal, AbortSignal.timeout(PROVIDER_RETRY.requestTimeoutMs)]) });
    } catch (error) {
      if (call.signal.aborted) throw call.signal.reason instanceof Error ? call.signal.reason : new Error('aborted');
      if (call.kind === 'submit' && !neverConnected(error)) throw notResent(describe(error));
      lastProblem = `could not reach ${PROVIDER} (${describe(error)})`;
      await backoff(attempt, null, call.signal);
      continue;
    }
    if (res.ok || !retryStatuses.includes(res.status)) {
      if (call.kind === 'submit' && res.status >= 500) throw notResent(`${res.status}: ${falDetail(await res.text().catch(() => ''))}`);
      return res;
    }
    lastProblem = `${PROVIDER} answered ${res.status}: ${falDetail(await res.text().catch(() => ''))}`;
    await backoff(attempt, retryAfterMs(res.headers.get('retry-after')), call.signal);
  }
  throw new ProviderError(`${lastProblem}; gave up after ${PROVIDER_RETRY.maxAttempts} attempts`);
}

/** Before the next attempt: what Retry-After asks (capped), else base × 2^attempt, capped; nothing after the last. */
async function backoff(attempt: number, askedMs: number | null, signal: AbortSignal): Promise<void> {
  if (attempt + 1 >= PROVIDER_RETRY.maxAttempts) return;
  await sleep(Math.min(PROVIDER_RETRY.maxDelayMs, askedMs ?? PROVIDER_RETRY.baseDelayMs * 2 ** attempt), signal);
}
