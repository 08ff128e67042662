// How DreamAPI's refusals are read: its {code, message, data} envelope and HTTP status, as input faults naming their
// field, account and capacity trouble making the engine unavailable.
import { PROVIDER_UNAVAILABLE } from '../../../src/lib/product-rules';
import { EngineInputError, EngineUnavailableError } from '../types';
import { DREAMAPI_ACCOUNT_STATUSES, DREAMAPI_BUSY_STATUSES, DREAMAPI_CODES } from './dreamapi-constants';
import { ProviderError, type ProviderAnswerError } from './http';

export const PROVIDER = 'DreamAPI';

type Envelope = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const isIn = (list: readonly number[], n: number | null) => n !== null && list.includes(n);

/**
 * The field a refusal's message names: "prompt: must be at most 1500 characters" (a compatible server's "field:
 * problem") or "audioId is required"; DreamAPI's field names are our public API's (the same tools, docs/public-api.md).
 */
export function fieldOfMessage(message: string): string | undefined {
  return /^([A-Za-z][\w.]*)(?::\s| is required\b| must\b)/.exec(message)?.[1];
}

/**
 * DreamAPI's refusal as the error the attempt ends with. Account trouble (a refused key, spent credits, a suspended
 * account) and DreamAPI busy after every retry make the engine unavailable: people read PROVIDER_UNAVAILABLE's message,
 * the operator reads `detail` (status, code, DreamAPI's words). A refused input names its field when the message does.
 */
export function dreamApiRefusal(status: number, envelope: Envelope, fallback = ''): Error {
  const code = typeof envelope.code === 'number' ? envelope.code : null;
  const why = str(envelope.message) ?? str(envelope.msg) ?? (fallback || '(no message)');
  const detail = `${PROVIDER} answered ${status}${code === null ? '' : ` code ${code}`}: ${why}`;
  if (DREAMAPI_ACCOUNT_STATUSES.includes(status) || isIn(DREAMAPI_CODES.account, code))
    return new EngineUnavailableError(PROVIDER_UNAVAILABLE.message(PROVIDER), detail, PROVIDER_UNAVAILABLE.accountMs);
  if (DREAMAPI_BUSY_STATUSES.includes(status) || isIn(DREAMAPI_CODES.busy, code))
    return new EngineUnavailableError(PROVIDER_UNAVAILABLE.message(PROVIDER), detail, PROVIDER_UNAVAILABLE.capacityMs);
  if (
    code === DREAMAPI_CODES.illegalParameter ||
    code === DREAMAPI_CODES.invalidInput ||
    status === 400 ||
    status === 422
  )
    return new EngineInputError(`${PROVIDER} refused the input: ${why}`, fieldOfMessage(why));
  return new ProviderError(
    code === null ? `${PROVIDER} answered ${status}: ${why}` : `${PROVIDER} answered code ${code}: ${why}`,
  );
}

/** A final HTTP error answer of an API call (providerFetch's ProviderAnswerError) read as DreamAPI's refusal. */
export function dreamApiAnswerFailure(error: ProviderAnswerError): Error {
  let envelope: Envelope = {};
  try {
    const parsed = JSON.parse(error.body) as unknown;
    if (parsed && typeof parsed === 'object') envelope = parsed as Envelope;
  } catch {
    /* not JSON (a proxy's error page): the status alone decides */
  }
  // Statuses still failing after every retry keep providerFetch's "gave up" sentence for the operator.
  return dreamApiRefusal(error.status, envelope, error.message);
}
