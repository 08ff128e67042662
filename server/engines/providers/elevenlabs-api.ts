// ElevenLabs through its official client (@elevenlabs/elevenlabs-js): our base URL and key, every call under our retry,
// timeout and error rules, its outages and best-effort deletes.
import type * as OfficialSdk from '@elevenlabs/elevenlabs-js';
import type { ElevenLabsClient as OfficialClient } from '@elevenlabs/elevenlabs-js';
import { ELEVENLABS_PROVIDER } from './elevenlabs-constants';
import { PROVIDER_RETRY, type MediaKind } from '../../../src/lib/product-rules';
import type { Logger } from '../../log';
import { probeMedia } from '../../media/probe';
import type { MediaBytes } from '../types';
import { billedCharacters } from './elevenlabs-cost';
import { elevenLabsFailure, retriedByElevenLabs } from './elevenlabs-errors';
import { ProviderError, retryAfterMs, sleep } from './http';
import { outageTracker } from './outages';

export const PROVIDER = ELEVENLABS_PROVIDER;

/**
 * The official client, imported on the first call: loading it costs about a second of CPU, which every process start
 * paid (tests, workers scaled out, `npm start`) even where ElevenLabs is not configured.
 */
let officialSdk: Promise<typeof OfficialSdk> | undefined;
const loadSdk = () => (officialSdk ??= import('@elevenlabs/elevenlabs-js'));

/** A file ElevenLabs made, recognised by its bytes. */
export interface ElevenLabsFile extends MediaBytes {
  kind: MediaKind;
  durationS: number | null;
  /** The characters ElevenLabs billed for it (speech and dialogue answers say so in a header); null when it did not. */
  billedCharacters?: number | null;
}

/** The per-request options every resource method of the official client takes (BaseRequestOptions). */
export interface RequestOptions {
  abortSignal: AbortSignal;
  timeoutInSeconds: number;
  maxRetries: number;
  headers?: Record<string, string>;
}

/** One call of the official client (an HttpResponsePromise): read with its raw response for the headers. */
export type Send<T> = (
  api: OfficialClient,
  options: RequestOptions,
) => { withRawResponse(): Promise<{ data: T; rawResponse: { headers: Headers } }> };

export interface CallOptions {
  signal: AbortSignal;
  /** The call carries a media file: it gets the upload timeout, not the per-request one. */
  upload?: boolean;
  /**
   * Safe to send again when no answer came (a read, a delete). A POST that got no answer may still have made (and
   * billed) a job, a clone or a transcript, so it is not.
   */
  idempotent?: boolean;
  /** The error a 404 means here (a job an earlier attempt started that ElevenLabs no longer knows). */
  missing?: () => Error;
  /** What a JSON answer of the wrong shape lacks, for the "malformed answer" error. */
  malformed?: string;
  /** A JSON answer is expected (sent as Accept: application/json, checked by checkedFetch). */
  json?: boolean;
}

/** A DELETE of something already gone: nothing left to do. */
class AlreadyGone extends Error {}

/** An answer that is not what the call needs; `what` says what it lacks or what came instead. */
const malformedAnswer = (what: string) => new ProviderError(`${PROVIDER} sent a malformed answer: ${what}`);

const aborted = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new Error('aborted'));

/** What an unexpected answer looked like, for the error message. */
function described(data: Buffer, contentType: string): string {
  const head = data.subarray(0, 80).toString('utf8').replace(/\s+/g, ' ').trim();
  return `${contentType || 'no content type'}, ${data.length} bytes${/^[\x20-\x7e]+$/.test(head) ? `: ${head}` : ''}`;
}

/**
 * The official client's fetch, narrowly wrapped: a 2xx answer to a JSON request whose body is not JSON reaches the
 * client's parser as an error object, and the parse then fails without a trace of what came (2.73.0
 * core/fetcher/getResponseBody.js, "non-json"). Read here first, it fails the call naming what came instead; the
 * client passes the error on as the `cause` of its ElevenLabsError. JSON calls say so in their Accept header (json()),
 * which the client itself sends as "any type" for these endpoints (2.73.0 core/fetcher/Fetcher.js getHeaders).
 */
const checkedFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (!res.ok || !new Headers(init?.headers).get('accept')?.includes('application/json')) return res;
  const text = await res.text();
  try {
    JSON.parse(text);
  } catch {
    throw malformedAnswer(text.slice(0, 120) || '(empty)');
  }
  return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
};

/** Bytes of the expected kind, or a clear "malformed answer". */
async function expectMedia(
  data: Buffer,
  contentType: string,
  kind: MediaKind,
  signal: AbortSignal,
): Promise<ElevenLabsFile> {
  const sniffed = await probeMedia(data, { signal });
  if (sniffed?.kind !== kind) throw malformedAnswer(`expected ${kind}, got ${described(data, contentType)}`);
  return { kind, mime: sniffed.mime, data, durationS: sniffed.durationS };
}

export function elevenLabsClient(key: string, baseUrl: string, log: Pick<Logger, 'warn'>) {
  // The client's own retries are off (maxRetries 0 here and on every call); ours below differ on purpose. Its backoff
  // wait ignores the abort signal (2.73.0 core/fetcher/requestWithRetries.js sleeps on a bare setTimeout), so a
  // canceled or timed-out task would hold its slot up to a minute; it never sends a read again after no answer, which a
  // dubbing poll can safely be; and it reads Retry-After: 0 as "back off 1 s, 2 s, 4 s" where ElevenLabs asks for none.
  let api: Promise<OfficialClient> | undefined;
  const official = () =>
    (api ??= loadSdk().then(
      (sdk) => new sdk.ElevenLabsClient({ apiKey: key, baseUrl, maxRetries: 0, fetch: checkedFetch }),
    ));
  const outages = outageTracker('elevenlabs', PROVIDER, log);

  /** One attempt: the call under the caller's signal and its own timeout, which also bounds reading a streamed body. */
  async function attempt<T>(send: Send<T>, o: CallOptions) {
    const timeoutMs = o.upload ? PROVIDER_RETRY.uploadTimeoutMs : PROVIDER_RETRY.requestTimeoutMs;
    const abortSignal = AbortSignal.any([o.signal, AbortSignal.timeout(timeoutMs)]);
    const headers = o.json ? { accept: 'application/json' } : undefined;
    return send(await official(), {
      abortSignal,
      timeoutInSeconds: timeoutMs / 1000,
      maxRetries: 0,
      ...(headers ? { headers } : {}),
    }).withRawResponse();
  }

  /**
   * Sends a call, retrying what ElevenLabs' own client retries (408, 429 honouring Retry-After, 5xx) and, for
   * idempotent calls, what got no answer, with exponential backoff, up to PROVIDER_RETRY.maxAttempts or the caller's
   * deadline.
   */
  async function retried<T>(send: Send<T>, o: CallOptions) {
    const { ElevenLabsError } = await loadSdk();
    let lastProblem = '';
    for (let n = 0; n < PROVIDER_RETRY.maxAttempts; n++) {
      try {
        return await attempt(send, o);
      } catch (error) {
        if (o.signal.aborted) throw aborted(o.signal);
        if (!(error instanceof ElevenLabsError))
          throw malformedAnswer(o.malformed ?? (error instanceof Error ? error.message : String(error)));
        if (error.cause instanceof ProviderError) throw error.cause;
        const last = n + 1 >= PROVIDER_RETRY.maxAttempts;
        const backoff = Math.min(PROVIDER_RETRY.maxDelayMs, PROVIDER_RETRY.baseDelayMs * 2 ** n);
        if (error.statusCode === undefined) {
          // No answer: a connection error or a timeout.
          lastProblem = `could not reach ${PROVIDER} (${error.message})`;
          if (!o.idempotent) throw new ProviderError(lastProblem);
          if (!last) await sleep(backoff, o.signal);
          continue;
        }
        // An answer without the body its call needs (the client's "body-is-null").
        if (error.statusCode < 400) throw malformedAnswer(o.malformed ?? `${error.statusCode} with no body`);
        if (error.statusCode === 404 && o.missing) throw o.missing();
        if (last || !retriedByElevenLabs(error.statusCode)) throw elevenLabsFailure(error.statusCode, error.body);
        // Waiting as asked, not less: the next try would only be refused again.
        const asked =
          error.statusCode === 429 ? retryAfterMs(error.rawResponse?.headers.get('retry-after') ?? null) : null;
        await sleep(asked === null ? backoff : Math.min(asked, PROVIDER_RETRY.maxDelayMs), o.signal);
      }
    }
    throw new ProviderError(`${lastProblem}; gave up after ${PROVIDER_RETRY.maxAttempts} attempts`);
  }

  /** A call whose account or capacity trouble takes the engine out for a while (outages.ts). */
  const call = <T>(send: Send<T>, o: CallOptions) => outages.watch(() => retried(send, o));

  /** A parsed JSON answer (the client's camelCase types). */
  const json = async <T>(send: Send<T>, o: CallOptions): Promise<T> => (await call(send, { ...o, json: true })).data;

  return {
    json,
    /**
     * Sends an input file for a JSON answer that must carry the text `field` (not empty unless `emptyOk`); an answer
     * without it fails as malformed, naming what it `lacks`. Never sent again: an upload that got no answer may still
     * have made (and billed) a job, a clone or a transcript.
     */
    async upload<T, K extends string>(
      send: Send<T>,
      signal: AbortSignal,
      needs: { field: K; lacks: string; emptyOk?: boolean },
    ): Promise<T & Record<K, string>> {
      const answer = await json(send, { signal, upload: true, malformed: needs.lacks });
      const value = (answer as Record<string, unknown>)[needs.field];
      if (typeof value !== 'string' || (value === '' && !needs.emptyOk)) throw malformedAnswer(needs.lacks);
      return answer as T & Record<K, string>;
    },
    /** A streamed file answer of the expected kind (TTS audio, a dubbed video), with the characters it billed. */
    async file(send: Send<ReadableStream<Uint8Array>>, kind: MediaKind, o: CallOptions): Promise<ElevenLabsFile> {
      const { data, rawResponse } = await call(send, o);
      const bytes = Buffer.from(await new Response(data).arrayBuffer());
      const file = await expectMedia(bytes, rawResponse.headers.get('content-type') ?? '', kind, o.signal);
      return { ...file, billedCharacters: billedCharacters(rawResponse.headers) };
    },
    /** Null while ElevenLabs can serve; after account or capacity trouble, for a while, why not (for the operator). */
    outage: (): string | null => outages.current(),
    /**
     * Deletes what the adapter made at ElevenLabs (`what` names it in the log). Best effort and never throws: the task
     * is already over on our side (refunded), so it runs on its own deadline, not the task's, and a failure is logged,
     * since the job may still bill.
     */
    async remove(what: string, send: Send<unknown>): Promise<void> {
      try {
        await retried(send, {
          signal: AbortSignal.timeout(PROVIDER_RETRY.requestTimeoutMs),
          idempotent: true,
          missing: () => new AlreadyGone(),
        });
      } catch (error) {
        if (error instanceof AlreadyGone) return;
        log.warn(`${PROVIDER} job could not be deleted; it may still run and bill at ElevenLabs`, {
          engine: 'elevenlabs',
          job: what,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },
  };
}

export type ElevenLabsClient = ReturnType<typeof elevenLabsClient>;
