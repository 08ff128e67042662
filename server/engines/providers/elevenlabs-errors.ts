// How ElevenLabs' error answers (the official client's ElevenLabsError: statusCode, body) are read: which are retried,
// input faults naming their field, account and capacity trouble making the engine unavailable.
import { PROVIDER_RETRY, PROVIDER_UNAVAILABLE } from '../../../src/lib/product-rules';
import { EngineInputError, EngineUnavailableError } from '../types';
import {
  ELEVENLABS_ERROR_STATUSES,
  ELEVENLABS_INPUT_FIELDS,
  ELEVENLABS_PROVIDER as PROVIDER,
} from './elevenlabs-constants';
import { ProviderError } from './http';
import { fieldOfLoc } from './validation';

/**
 * The statuses ElevenLabs' own client sends again: 408, 429 and every 5xx, and nothing that got no answer
 * (@elevenlabs/elevenlabs-js 2.73.0 core/fetcher/requestWithRetries.js isRetryableStatusCode; the same in
 * elevenlabs/elevenlabs-js src/core/fetcher/requestWithRetries.ts at 87100890798f961a1b93300e9bb443dc35b5de6a).
 */
export function retriedByElevenLabs(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Statuses that, after every retry, mean ElevenLabs has no room for the request rather than a fault in it. */
const BUSY_STATUSES = new Set([408, 429, 502, 503, 504]);

/**
 * What an error body says: ElevenLabs' {detail: {status, message}}, or FastAPI's {detail: [{loc, msg, type}]}
 * (HTTPValidationError).
 */
interface ErrorBody {
  status: string | null;
  message: string | null;
  invalid: Array<{ field: string; msg: string }>;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/**
 * The input field a validation error's loc points at: ours when we know which input it came from, else ElevenLabs' own
 * name.
 */
export function fieldOf(loc: unknown): string {
  return fieldOfLoc(loc, ELEVENLABS_INPUT_FIELDS);
}

function readBody(body: string): ErrorBody {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { status: null, message: text(body.slice(0, 300)), invalid: [] };
  }
  const detail = (json as { detail?: unknown } | null)?.detail;
  if (Array.isArray(detail)) {
    const invalid = detail.map((d: { loc?: unknown; msg?: unknown }) => ({
      field: fieldOf(d?.loc),
      msg: text(d?.msg) ?? 'invalid',
    }));
    return { status: null, message: null, invalid };
  }
  if (detail && typeof detail === 'object') {
    const d = detail as { status?: unknown; message?: unknown };
    return { status: text(d.status), message: text(d.message), invalid: [] };
  }
  return { status: null, message: text(detail) ?? text((json as { message?: unknown } | null)?.message), invalid: [] };
}

/**
 * ElevenLabs' final error answer as the error the task should end with, or undefined for elevenLabsFailure's generic
 * one. Account trouble (quota, billing, key) and a provider still busy after every retry make the engine unavailable:
 * the people calling read a message naming no cause they could fix, the operator reads `detail` (status, detail.status,
 * message).
 */
export function elevenLabsRefusal(status: number, body: string): Error | undefined {
  const said = readBody(body);
  const detail = `${PROVIDER} answered ${status}${said.status ? ` ${said.status}` : ''}: ${said.message ?? (said.invalid.map((i) => `${i.field}: ${i.msg}`).join('; ') || '(no message)')}`;
  const account =
    (ELEVENLABS_ERROR_STATUSES.account as readonly string[]).includes(said.status ?? '') ||
    status === 401 ||
    status === 402 ||
    status === 403;
  if (account)
    return new EngineUnavailableError(PROVIDER_UNAVAILABLE.message(PROVIDER), detail, PROVIDER_UNAVAILABLE.accountMs);
  const busy =
    (ELEVENLABS_ERROR_STATUSES.busy as readonly string[]).includes(said.status ?? '') || BUSY_STATUSES.has(status);
  if (busy)
    return new EngineUnavailableError(PROVIDER_UNAVAILABLE.message(PROVIDER), detail, PROVIDER_UNAVAILABLE.capacityMs);
  if (said.invalid.length > 0)
    return new EngineInputError(
      `${PROVIDER} refused the input: ${said.invalid.map((i) => `${i.field}: ${i.msg}`).join('; ')}`,
      said.invalid[0]!.field,
    );
  if ((status === 400 || status === 422) && said.message)
    return new EngineInputError(`${PROVIDER} refused the input: ${said.message}`);
  return undefined;
}

/** An ElevenLabsError's body as text: the client hands over JSON bodies parsed and any other body as a string. */
export function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/**
 * The error a final error answer ends the attempt with: ElevenLabs' own reading first (elevenLabsRefusal), else a
 * status still failing after every retry, a refused input (400/422), or the status and what the body said.
 */
export function elevenLabsFailure(status: number, body: unknown): Error {
  const raw = bodyText(body);
  const refusal = elevenLabsRefusal(status, raw);
  if (refusal) return refusal;
  const said = readBody(raw);
  const why =
    said.message ?? (said.invalid.map((i) => `${i.field}: ${i.msg}`).join('; ') || raw.slice(0, 300) || '(no message)');
  if (retriedByElevenLabs(status))
    return new ProviderError(
      `${PROVIDER} failed (${status}: ${why}); gave up after ${PROVIDER_RETRY.maxAttempts} attempts`,
    );
  if (status === 400 || status === 422) return new EngineInputError(`${PROVIDER} refused the input: ${why}`);
  return new ProviderError(`${PROVIDER} answered ${status}: ${why}`);
}
