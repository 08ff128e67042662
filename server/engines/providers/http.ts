// Calls a provider over HTTP: per-request timeout, retries of 429 (Retry-After), 5xx and network failures with backoff,
// clear errors carrying the final answer.
import { PROVIDER_RETRY } from '../../../src/lib/product-rules';

/** A provider answer that is final for this attempt (no retry helps): bad key, refused input, malformed answer. */
export class ProviderError extends Error {
  override name = 'ProviderError';
}

export interface ProviderRequest {
  provider: string;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: BodyInit;
  signal: AbortSignal;
  /** Longer than PROVIDER_RETRY.requestTimeoutMs for uploads of large media. */
  timeoutMs?: number;
}

/**
 * A provider's final error answer (after every retry), kept whole so its adapter can read the body in its own terms.
 */
export class ProviderAnswerError extends ProviderError {
  override name = 'ProviderAnswerError';
  constructor(
    message: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(message);
  }
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function detail(text: string): string {
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const d = json.detail ?? json.message ?? json.error ?? json.msg;
    // Some providers nest the sentence: { detail: { status, message } }.
    const said =
      d && typeof d === 'object' && typeof (d as { message?: unknown }).message === 'string'
        ? (d as { message: string }).message
        : d;
    return typeof said === 'string' ? said.slice(0, 300) : JSON.stringify(said ?? json).slice(0, 300);
  } catch {
    return text.slice(0, 300);
  }
}

/**
 * Sends a request, retrying transient failures (429 honouring Retry-After, 5xx, timeouts, connection errors) with
 * exponential backoff until maxAttempts or the caller's deadline (its signal); a final error answer is thrown as a
 * ProviderAnswerError for the adapter to read.
 */
export async function providerFetch(r: ProviderRequest): Promise<Response> {
  const retryable = (status: number) => status === 429 || status >= 500;
  let lastProblem = '';
  let lastAnswer: { status: number; body: string } | null = null;
  let waited = false;
  for (let attempt = 0; attempt < PROVIDER_RETRY.maxAttempts; attempt++) {
    if (attempt > 0 && !waited)
      await sleep(Math.min(PROVIDER_RETRY.maxDelayMs, PROVIDER_RETRY.baseDelayMs * 2 ** (attempt - 1)), r.signal);
    waited = false;
    let res: Response;
    try {
      res = await fetch(r.url, {
        method: r.method ?? 'GET',
        headers: r.headers,
        body: r.body,
        signal: AbortSignal.any([r.signal, AbortSignal.timeout(r.timeoutMs ?? PROVIDER_RETRY.requestTimeoutMs)]),
      });
    } catch (error) {
      if (r.signal.aborted) throw r.signal.reason instanceof Error ? r.signal.reason : new Error('aborted');
      lastProblem = `could not reach ${r.provider} (${error instanceof Error ? error.message : String(error)})`;
      lastAnswer = null;
      continue;
    }
    if (res.ok) return res;
    const body = await res.text().catch(() => '');
    lastAnswer = { status: res.status, body };
    if (retryable(res.status)) {
      lastProblem =
        res.status === 429
          ? `${r.provider} is rate limiting requests (429)`
          : `${r.provider} failed (${res.status}: ${detail(body)})`;
      const wait = res.status === 429 ? retryAfterMs(res.headers.get('retry-after')) : null;
      // Waiting as asked, not less: the next try would only be refused again.
      if (wait !== null && attempt + 1 < PROVIDER_RETRY.maxAttempts) {
        await sleep(Math.min(wait, PROVIDER_RETRY.maxDelayMs), r.signal);
        waited = true;
      }
      continue;
    }
    throw refused(r.provider, res.status, body);
  }
  const gaveUp = `${lastProblem}; gave up after ${PROVIDER_RETRY.maxAttempts} attempts`;
  throw lastAnswer ? new ProviderAnswerError(gaveUp, lastAnswer.status, lastAnswer.body) : new ProviderError(gaveUp);
}

/**
 * A final refusal in general terms, its answer kept. Whose fault it is (the caller's input, an account outage) is for
 * the adapter to tell from the body; this message names no configuration, since it may reach the people calling.
 */
function refused(provider: string, status: number, body: string): ProviderAnswerError {
  const said =
    status === 400 || status === 422
      ? 'refused the input'
      : status === 401 || status === 403
        ? 'refused the request'
        : 'answered';
  return new ProviderAnswerError(`${provider} ${said} (${status}: ${detail(body)})`, status, body);
}

/**
 * Reachable by a provider only when public: this server's own localhost or private-network media must be uploaded
 * first.
 */
export function isPublicUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return !/^(localhost|127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|\[?::1\]?$|0\.0\.0\.0)/.test(host);
}

/** Reads a JSON answer, turning anything else into a clear "malformed answer" error. */
export async function json<T = Record<string, unknown>>(res: Response, provider: string): Promise<T> {
  const text = await res.text();
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object') return value as T;
  } catch {
    /* reported below */
  }
  throw new ProviderError(`${provider} sent a malformed answer: ${text.slice(0, 120) || '(empty)'}`);
}

/** Downloads an output file the provider made. */
export async function download(
  provider: string,
  url: string,
  signal: AbortSignal,
): Promise<{ data: Buffer; mime: string }> {
  const res = await providerFetch({ provider, url, signal });
  return {
    data: Buffer.from(await res.arrayBuffer()),
    mime: (res.headers.get('content-type') ?? '').split(';')[0]!.trim(),
  };
}
