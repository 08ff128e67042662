// ElevenLabs HTTP client: xi-api-key, JSON and multipart requests through providerFetch, answers checked, ElevenLabs' error details made readable.
import { ELEVENLABS_AUTH_HEADER, ELEVENLABS_PROGRESS } from './elevenlabs-constants';
import { PROVIDER_RETRY, primaryLanguage, type MediaKind } from '../../../src/lib/spec';
import { probeMedia } from '../../media/probe';
import { EngineInputError, type InputMedia, type MediaBytes } from '../types';
import { json, providerFetch, ProviderError } from './http';

export const PROVIDER = 'ElevenLabs';

/** A file ElevenLabs made, recognised by its bytes. */
export interface ElevenLabsFile extends MediaBytes {
  kind: MediaKind;
  durationS: number | null;
}

export interface ElevenLabsRequest {
  method?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as multipart/form-data (uploads). */
  form?: FormData;
}

// ElevenLabs answers {"detail": {"status", "message"}} (or FastAPI's [{"loc", "msg"}]); http.ts quotes that JSON
// in its error, cut at 300 characters, so the fields are read with a pattern that survives a cut.
const DETAIL_FIELD = /"(message|msg|status)"\s*:\s*"((?:[^"\\]|\\.)*)"/g;

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

function unquote(s: string): string {
  try {
    return JSON.parse(`"${s}"`) as string;
  } catch {
    return s;
  }
}

/** Replaces the JSON quoted in a provider error by ElevenLabs' own words; a spent quota is the account's problem, not the input's. */
export function readableError(error: unknown): unknown {
  if (!(error instanceof EngineInputError || error instanceof ProviderError)) return error;
  const start = error.message.search(/[{[]/);
  if (start < 0) return error;
  const fields = [...error.message.matchAll(DETAIL_FIELD)];
  const words = fields.filter((f) => f[1] !== 'status').map((f) => unquote(f[2]!));
  if (words.length === 0) return error;
  const said = words.join('; ');
  if (fields.some((f) => f[1] === 'status' && f[2] === 'quota_exceeded')) return new ProviderError(`${PROVIDER} has no quota left for this request: ${said}`);
  // What follows a whole JSON value is http.ts' own wording; after a cut-short one there is only the cut.
  const end = Math.max(error.message.lastIndexOf('}'), error.message.lastIndexOf(']'));
  const tail = end > start && isJson(error.message.slice(start, end + 1)) ? error.message.slice(end + 1) : '';
  const message = `${error.message.slice(0, start)}${said}${tail}`;
  return error instanceof EngineInputError ? new EngineInputError(message) : new ProviderError(message);
}

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

export function elevenLabsClient(key: string, baseUrl: string) {
  const auth = { [ELEVENLABS_AUTH_HEADER]: key };

  async function send(path: string, r: ElevenLabsRequest, signal: AbortSignal): Promise<Response> {
    const body = r.form ?? (r.json === undefined ? undefined : JSON.stringify(r.json));
    const headers = r.json === undefined ? auth : { ...auth, 'content-type': 'application/json' };
    try {
      // Multipart bodies carry media files: they get the upload timeout, not the per-request one.
      const timeoutMs = r.form ? PROVIDER_RETRY.uploadTimeoutMs : undefined;
      return await providerFetch({ provider: PROVIDER, url: `${baseUrl}${path}`, method: r.method ?? (body ? 'POST' : 'GET'), headers, body, signal, timeoutMs });
    } catch (error) {
      throw readableError(error);
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
      return expectMedia(Buffer.from(await res.arrayBuffer()), res.headers.get('content-type') ?? '', kind, signal);
    },
    /** Best effort and detached: the task is already over on our side (refunded), this only frees the provider's job. */
    forget(path: string): void {
      void fetch(`${baseUrl}${path}`, { method: 'DELETE', headers: auth, signal: AbortSignal.timeout(PROVIDER_RETRY.requestTimeoutMs) }).catch(() => {});
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
