// ElevenLabs HTTP client: xi-api-key, JSON and multipart requests through providerFetch with ElevenLabs' retry and error rules, its outages and best-effort deletes.
import { ELEVENLABS_AUTH_HEADER, ELEVENLABS_PROGRESS, ELEVENLABS_PROVIDER } from './elevenlabs-constants';
import { PROVIDER_RETRY, primaryLanguage, type MediaKind } from '../../../src/lib/spec';
import type { Logger } from '../../log';
import { probeMedia } from '../../media/probe';
import { EngineInputError, EngineUnavailableError, type InputMedia, type MediaBytes } from '../types';
import { billedCharacters } from './elevenlabs-cost';
import { elevenLabsRefusal, retriedByElevenLabs } from './elevenlabs-errors';
import { json, providerFetch, ProviderError } from './http';

export const PROVIDER = ELEVENLABS_PROVIDER;

/** A file ElevenLabs made, recognised by its bytes. */
export interface ElevenLabsFile extends MediaBytes {
  kind: MediaKind;
  durationS: number | null;
  /** The characters ElevenLabs billed for it (speech and dialogue answers say so in a header); null when it did not. */
  billedCharacters?: number | null;
}

export interface ElevenLabsRequest {
  method?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as multipart/form-data (uploads). */
  form?: FormData;
  /** The error a 404 means here (a job an earlier attempt started that ElevenLabs no longer knows). */
  missing?: () => Error;
}

/** A DELETE of something already gone: nothing left to do. */
class AlreadyGone extends Error {}

/** What an unexpected answer looked like, for the error message. */
function described(data: Buffer, contentType: string): string {
  const head = data.subarray(0, 80).toString('utf8').replace(/\s+/g, ' ').trim();
  return `${contentType || 'no content type'}, ${data.length} bytes${/^[\x20-\x7e]+$/.test(head) ? `: ${head}` : ''}`;
}

/** Bytes of the expected kind, or a clear "malformed answer". */
async function expectMedia(data: Buffer, contentType: string, kind: MediaKind, signal: AbortSignal): Promise<ElevenLabsFile> {
  const sniffed = await probeMedia(data, { signal });
  if (sniffed?.kind !== kind) throw new ProviderError(`${PROVIDER} sent a malformed answer: expected ${kind}, got ${described(data, contentType)}`);
  return { kind, mime: sniffed.mime, data, durationS: sniffed.durationS };
}

/** An input file as a multipart part, named by its type so ElevenLabs can tell the container. */
export function filePart(media: InputMedia, name: string): [Blob, string] {
  const ext = media.mime.split('/')[1]?.replace('mpeg', 'mp3').replace('quicktime', 'mov') ?? 'bin';
  return [new Blob([new Uint8Array(media.data)], { type: media.mime }), `${name}.${ext}`];
}

export function elevenLabsClient(key: string, baseUrl: string, log: Pick<Logger, 'warn'>) {
  const auth = { [ELEVENLABS_AUTH_HEADER]: key };
  let outage: { until: number; detail: string } | null = null;

  function noteOutage(error: EngineUnavailableError): void {
    outage = { until: Date.now() + error.forMs, detail: error.detail };
    log.warn(`${PROVIDER} cannot serve requests for now; its features fall back to their next engine`, { engine: 'elevenlabs', detail: error.detail, forS: Math.round(error.forMs / 1000) });
  }

  async function send(path: string, r: ElevenLabsRequest, signal: AbortSignal): Promise<Response> {
    const body = r.form ?? (r.json === undefined ? undefined : JSON.stringify(r.json));
    const headers = r.json === undefined ? auth : { ...auth, 'content-type': 'application/json' };
    const method = r.method ?? (body ? 'POST' : 'GET');
    try {
      // Multipart bodies carry media files: they get the upload timeout, not the per-request one. A POST that got no
      // answer may still have made (and billed) a job, so only reads are sent again.
      const timeoutMs = r.form ? PROVIDER_RETRY.uploadTimeoutMs : undefined;
      return await providerFetch({
        provider: PROVIDER,
        url: `${baseUrl}${path}`,
        method,
        headers,
        body,
        signal,
        timeoutMs,
        retryStatus: retriedByElevenLabs,
        resendUnanswered: method === 'GET',
        refusal: (status, text) => (status === 404 && r.missing ? r.missing() : elevenLabsRefusal(status, text)),
      });
    } catch (error) {
      if (error instanceof EngineUnavailableError) noteOutage(error);
      throw error;
    }
  }

  return {
    /** A JSON answer (anything else is a malformed answer). */
    async json<T>(path: string, r: ElevenLabsRequest, signal: AbortSignal): Promise<Partial<T>> {
      return json<Partial<T>>(await send(path, r, signal), PROVIDER);
    },
    /** A file answer of the expected kind (TTS audio, a dubbed video). */
    async file(path: string, r: ElevenLabsRequest, kind: MediaKind, signal: AbortSignal): Promise<ElevenLabsFile> {
      const res = await send(path, r, signal);
      const file = await expectMedia(Buffer.from(await res.arrayBuffer()), res.headers.get('content-type') ?? '', kind, signal);
      return { ...file, billedCharacters: billedCharacters(res.headers) };
    },
    /** Null while ElevenLabs can serve; after account or capacity trouble, for a while, why not (for the operator). */
    outage(): string | null {
      if (!outage || Date.now() >= outage.until) return null;
      return `${outage.detail} (engine out of its features' chains until ${new Date(outage.until).toISOString()})`;
    },
    /**
     * Deletes what the adapter made at ElevenLabs. Best effort and never throws: the task is already over on our side
     * (refunded), so it runs on its own deadline, not the task's, and a failure is logged, since the job may still bill.
     */
    async remove(path: string): Promise<void> {
      try {
        const signal = AbortSignal.timeout(PROVIDER_RETRY.requestTimeoutMs);
        const res = await providerFetch({ provider: PROVIDER, url: `${baseUrl}${path}`, method: 'DELETE', headers: auth, signal, retryStatus: retriedByElevenLabs, refusal: (status) => (status === 404 ? new AlreadyGone() : undefined) });
        await res.body?.cancel();
      } catch (error) {
        if (error instanceof AlreadyGone) return;
        log.warn(`${PROVIDER} job could not be deleted; it may still run and bill at ElevenLabs`, { engine: 'elevenlabs', path, error: error instanceof Error ? error.message : String(error) });
      }
    },
  };
}

export type ElevenLabsClient = ReturnType<typeof elevenLabsClient>;

/** A required text field of a stored input; its absence is the input's fault. */
export function requiredText(input: Record<string, unknown>, field: string, feature: string): string {
  const value = input[field];
  if (typeof value !== 'string' || value.trim() === '') throw new EngineInputError(`${PROVIDER} needs ${field} for ${feature}`);
  return value;
}

/** Progress for a share (0–1) of the work done between sending and the result. */
export function progressShare(share: number): number {
  const { submitted, beforeResult } = ELEVENLABS_PROGRESS;
  return submitted + Math.round(Math.min(1, Math.max(0, share)) * (beforeResult - submitted));
}

/** ISO 639 code ElevenLabs expects from what users send ("en", "en-US", "pt_BR" → "en", "en", "pt"). */
export function languageCode(lan: string): string {
  const s = lan.trim().toLowerCase();
  return /^[a-z]{2,3}([-_][a-z0-9]+)*$/.test(s) ? primaryLanguage(s) : s;
}
