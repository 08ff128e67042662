// fal's official client (@fal-ai/client) as this server runs it: our base URLs, the task's abort signal, a timeout per
// request, a submit never re-sent once fal may have queued it.
import { createFalClient, type FalClient } from '@fal-ai/client';
import { FAL_CLIENT_HOSTS, FAL_MESSAGES, PROVIDER_RETRY } from '../../../src/lib/product-rules';
import { ProviderError, retryAfterMs, sleep } from './http';

/** Where fal is reached: the FAL_* settings (a proxy, or the tests' local stand-in) and the key. */
export interface FalClientConfig {
  key: string;
  queueUrl: string;
  storageUrl: string;
}

/**
 * How a client's requests may be re-sent. `read` (status, result, cancel, storage): the client's own retries apply,
 * 429, 502, 503, 504 and transport errors with backoff (fal-ai/fal-js libs/client/src/retry.ts, queue.ts
 * QUEUE_RETRY_CONFIG). `submit`: starts a paid job, so only what fal certainly did not take is re-sent (see
 * submitGuard).
 */
export type FalPolicy = 'read' | 'submit';

export interface FalClientOptions {
  /** The run's signal: the client passes none to storage calls, so every request gets it here. */
  signal: AbortSignal;
  policy: FalPolicy;
  /**
   * Sees each answer before the client reads it: the only way to a header the client does not expose (the result's
   * cost).
   */
  onResponse?: (res: Response) => void;
}

/**
 * Error codes of a connection that was never opened, so no byte of the request reached fal (undici puts them on
 * `cause`).
 */
const NEVER_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function neverConnected(error: unknown): boolean {
  for (
    let e: unknown = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NEVER_CONNECTED.has(code)) return true;
  }
  return false;
}

export function describeError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
}

export const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error('aborted');

/**
 * The client's URLs moved onto our configured bases. fal-js builds every queue URL on https://queue.fal.run and storage
 * on https://rest.fal.ai (request.ts buildUrl, config.ts getRestApiUrl) with no setting for either, and its `proxyUrl`
 * sends everything to one URL with the target in a header, which fal's API does not read; rewriting the host keeps
 * FAL_QUEUE_URL / FAL_STORAGE_URL working. Any other fal host (synchronous fal.run, which this adapter never calls) is
 * refused, so no request leaves for a host the operator did not configure.
 */
export function onConfiguredBase(url: string, c: FalClientConfig): string {
  for (const [host, base] of [
    [FAL_CLIENT_HOSTS.queue, c.queueUrl],
    [FAL_CLIENT_HOSTS.rest, c.storageUrl],
  ] as const) {
    if (url === host || url.startsWith(`${host}/`) || url.startsWith(`${host}?`))
      return `${base}${url.slice(host.length)}`;
  }
  throw new ProviderError(FAL_MESSAGES.unknownHost(url));
}

/**
 * A submit's answer read before the client sees it. The client retries a queue submit like a read (queue.ts submit()
 * passes QUEUE_RETRY_CONFIG per call, which overrides any `retry` setting of ours): on 502/503/504 and on resets and
 * socket timeouts, all of which can come after fal queued the job, so a re-send could start a second paid job. A 5xx
 * or an unclear transport failure is thrown here as an error the client does not retry (no status, no `cause`); a 429
 * (refused before queueing) and a connection never opened still reach its retry.
 */
async function submitGuard(res: Response | null, error: unknown): Promise<void> {
  if (res === null) {
    if (!neverConnected(error)) throw new ProviderError(FAL_MESSAGES.notResent(describeError(error)));
    return;
  }
  if (res.status >= 500)
    throw new ProviderError(
      FAL_MESSAGES.notResent(`${res.status}: ${(await res.text().catch(() => '')).slice(0, 300)}`),
    );
}

/**
 * The `fetch` the client is given: the run's signal and a timeout on each request, the submit guard, Retry-After
 * honoured.
 */
function guardedFetch(o: FalClientOptions): typeof fetch {
  return async (input, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    // Storage PUTs carry up to 100 MB of media; every other call is small.
    const timeoutMs = method === 'PUT' ? PROVIDER_RETRY.uploadTimeoutMs : PROVIDER_RETRY.requestTimeoutMs;
    let res: Response;
    try {
      res = await fetch(input, {
        ...init,
        signal: AbortSignal.any([o.signal, AbortSignal.timeout(timeoutMs), ...(init.signal ? [init.signal] : [])]),
      });
    } catch (error) {
      if (o.signal.aborted) throw abortReason(o.signal);
      if (o.policy === 'submit') await submitGuard(null, error);
      // The client never retries a TimeoutError (it takes one for the caller's own); ours is a passing failure of one
      // request, so it is handed over as the socket timeout it stands for, which the client retries for reads.
      if (error instanceof Error && error.name === 'TimeoutError')
        throw Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' });
      throw error;
    }
    if (o.policy === 'submit') await submitGuard(res, null);
    // The client's backoff ignores Retry-After; waiting here first means the next try is never earlier than fal asked.
    if (res.status === 429)
      await sleep(Math.min(PROVIDER_RETRY.maxDelayMs, retryAfterMs(res.headers.get('retry-after')) ?? 0), o.signal);
    o.onResponse?.(res);
    return res;
  };
}

/**
 * A client for one kind of call of one run: cheap to make, so each gets the signal, policy and answer hook it needs.
 */
export function falClient(c: FalClientConfig, o: FalClientOptions): FalClient {
  return createFalClient({
    credentials: c.key,
    requestMiddleware: async (request) => ({ ...request, url: onConfiguredBase(request.url, c) }),
    fetch: guardedFetch(o),
  });
}
