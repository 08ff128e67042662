// Standard Webhooks signature verification (webhook-id, webhook-timestamp, webhook-signature) with Web Crypto: Node 18+
// and browsers.

export const DEFAULT_TOLERANCE_S = 300;
const SECRET_PREFIX = 'whsec_';

export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

export interface VerifyInput {
  /** Your signing secret, whsec_… (from POST /api/webhook_secret). */
  secret: string;
  headers: HeaderSource;
  /** The raw body exactly as received, before any JSON parsing. */
  body: string | Uint8Array;
  /** Accepted clock difference in seconds. */
  toleranceS?: number;
  /** Now, in Unix seconds (for tests and replays). */
  nowS?: number;
}

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function toBase64(bytes: ArrayBuffer): string {
  let binary = '';
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Compares without an early exit, so the time taken does not reveal how much of a guess was right. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The v1 signature of a message, as the server computes it. */
export async function signature(
  secret: string,
  id: string,
  timestampS: number | string,
  body: string | Uint8Array,
): Promise<string> {
  let keyBytes: Uint8Array;
  try {
    keyBytes = fromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  } catch {
    throw new TypeError('secret must be whsec_ followed by base64');
  }
  const key = await crypto.subtle.importKey('raw', keyBytes as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestampS}.${text}`));
  return `v1,${toBase64(mac)}`;
}

/** Why a webhook is refused, or null when it is authentic and fresh. */
export async function webhookProblem(input: VerifyInput): Promise<string | null> {
  const id = header(input.headers, 'webhook-id');
  const timestamp = header(input.headers, 'webhook-timestamp');
  const signatures = header(input.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) return 'missing webhook-id, webhook-timestamp or webhook-signature';
  if (!/^\d+$/.test(timestamp)) return 'webhook-timestamp is not Unix seconds';
  const now = input.nowS ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (input.toleranceS ?? DEFAULT_TOLERANCE_S))
    return 'webhook-timestamp is outside the tolerance (a replay or a wrong clock)';
  const expected = await signature(input.secret, id, timestamp, input.body);
  // The header may list several space-separated signatures (e.g. during a secret rotation).
  const match = signatures.split(' ').some((s) => constantTimeEqual(s, expected));
  return match ? null : 'no signature matches';
}

export async function verifyWebhook(input: VerifyInput): Promise<boolean> {
  return (await webhookProblem(input)) === null;
}
