// The product API client of SPEC.md §7/§8: form body by default, 10 s timeout, token and Bearer headers, envelope
// handling.
import { API_CODES, MESSAGES, REQUEST, STORAGE_KEYS, SUCCESS_STATUS_CODE } from '../product-rules';
import { local } from '../storage';
import { notifyNotLoggedIn, type NotLoggedIn } from './not-logged-in';

export { onNotLoggedIn, type NotLoggedIn } from './not-logged-in';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface Envelope {
  code?: number;
  status_code?: string;
  msg?: string;
  message?: string;
  data?: unknown;
}

export interface RequestOptions {
  /** POST (the default) or GET, which sends no body (e.g. the playground's feature and model lists). */
  method?: 'GET' | 'POST';
  /** Send JSON instead of the §7 default form body (e.g. POST /user/invitation). */
  json?: boolean;
  /** REQUEST.timeoutMs (SPEC.md §7's 10 s) unless given. */
  timeoutMs?: number;
  /** The request outlives the page (sent while it unloads, e.g. a pending history delete). */
  keepalive?: boolean;
}

export function apiBase(): string {
  return (import.meta.env.PUBLIC_API_BASE ?? '').replace(/\/$/, '');
}

function encodeForm(data: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(data)) {
    if (value !== undefined && value !== null) form.set(key, String(value));
  }
  return form.toString();
}

/**
 * §8 40001: the listeners hear of it (they clear the stored tokens and save countryCode); the call rejects with 'User
 * Not Login'.
 */
function handleNotLoggedIn(body: Envelope): ApiError {
  // Unchecked data: the country is taken only when it is text.
  const country: unknown = (body.data as Partial<NotLoggedIn> | null | undefined)?.countryCode;
  const notice: NotLoggedIn = { countryCode: typeof country === 'string' && country ? country : null };
  notifyNotLoggedIn(notice);
  return new ApiError(MESSAGES.notLoggedIn, API_CODES.notLoggedIn);
}

/** The session token and, when stored, the API key as a Bearer header: every call sends them (SPEC.md §7). */
export function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = { token: local.get(STORAGE_KEYS.userToken) ?? '' };
  const key = local.get(STORAGE_KEYS.userKey);
  if (key) headers.authorization = `Bearer ${key}`;
  return headers;
}

export async function apiRequest<T>(
  path: string,
  data: Record<string, unknown> = {},
  options: RequestOptions = {},
): Promise<T> {
  const get = options.method === 'GET';
  const headers = get
    ? authHeaders()
    : { 'content-type': options.json ? 'application/json' : 'application/x-www-form-urlencoded', ...authHeaders() };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? REQUEST.timeoutMs);
  let body: Envelope;
  try {
    const res = await fetch(`${apiBase()}${path}`, {
      method: get ? 'GET' : 'POST',
      headers,
      body: get ? undefined : options.json ? JSON.stringify(data) : encodeForm(data),
      signal: controller.signal,
      ...(options.keepalive ? { keepalive: true } : {}),
    });
    body = (await res.json().catch(() => ({ msg: MESSAGES.failed }))) as Envelope;
  } catch (error) {
    if (controller.signal.aborted) throw new ApiError(MESSAGES.networkError, null);
    throw new ApiError(error instanceof Error && error.message ? error.message : MESSAGES.failed, null);
  } finally {
    clearTimeout(timer);
  }
  return settle<T>(body);
}

/** An answer's data on success (SPEC.md §8 code 0 or status_code), else the ApiError it stands for (40001 as above). */
export function settle<T>(body: Envelope): T {
  if (body.code === API_CODES.ok || body.status_code === SUCCESS_STATUS_CODE) return body.data as T;
  if (body.code === API_CODES.notLoggedIn) throw handleNotLoggedIn(body);
  throw new ApiError(body.msg || body.message || MESSAGES.failed, typeof body.code === 'number' ? body.code : null);
}
