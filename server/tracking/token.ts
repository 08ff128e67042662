// Server-signed, expiring tracking tokens, and the per-token `sign` and batch key `ak` derived from them
// (docs/tracking-protocol.md).
import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { TRACKING_TOKEN } from '../../src/lib/product-rules';

export interface TokenClaims {
  /** App key the token was issued to. */
  k: string;
  /** produceId: random id of this token's reporting session. */
  p: string;
  /** Device id the client sent. */
  d: string;
  /** Issued and expiry times, epoch ms. */
  iat: number;
  exp: number;
}

const PART = /^[A-Za-z0-9_-]+$/;

/** The secret as a ready key object: preparing a key from a string costs more than the HMAC itself. */
const secretKeys = new Map<string, KeyObject>();
function secretKey(secret: string): KeyObject {
  let key = secretKeys.get(secret);
  if (key === undefined) {
    // A process has one or two secrets; tests make more, so the map is kept small.
    if (secretKeys.size >= 16) secretKeys.clear();
    secretKeys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
  }
  return key;
}

function mac(secret: string, purpose: string, text: string): Buffer {
  return createHmac('sha256', secretKey(secret)).update(`${purpose}\n${text}`).digest();
}

export function issueToken(
  secret: string,
  appKey: string,
  deviceId: string,
  now: number,
): { token: string; claims: TokenClaims } {
  const claims: TokenClaims = {
    k: appKey,
    p: randomBytes(12).toString('hex'),
    d: deviceId,
    iat: now,
    exp: now + TRACKING_TOKEN.ttlMs,
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return { token: `${payload}.${mac(secret, 'token', payload).toString('base64url')}`, claims };
}

/**
 * The claims of a token this server signed and that has not expired, else null (forged, altered, expired, malformed).
 */
export function verifyToken(secret: string, token: string, now: number): TokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 2 || !PART.test(parts[0]!) || !PART.test(parts[1]!)) return null;
  const given = Buffer.from(parts[1]!, 'base64url');
  const expected = mac(secret, 'token', parts[0]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: TokenClaims;
  try {
    claims = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as TokenClaims;
  } catch {
    return null;
  }
  if (typeof claims?.exp !== 'number' || typeof claims.k !== 'string' || typeof claims.p !== 'string') return null;
  return claims.exp > now ? claims : null;
}

/** The `sign` handed out with a token: proves, on track_config, that the caller got both from access_token. */
export function tokenSign(secret: string, token: string): string {
  return mac(secret, 'sign', token).toString('hex');
}

/** The batch key for a token: 64 hex characters, the 256-bit AES key and HMAC key of its batches. */
export function batchKey(secret: string, token: string): string {
  return mac(secret, 'ak', token).toString('hex');
}

/** access_token's answer (SPEC.md §7): a new token for the device, its produceId, sign, config version and expiry. */
export function accessTokenAnswer(secret: string, appKey: string, deviceId: string, now: number) {
  const { token, claims } = issueToken(secret, appKey, deviceId, now);
  return {
    token,
    produceId: claims.p,
    sign: tokenSign(secret, token),
    configVersion: TRACKING_TOKEN.configVersion,
    expiresAt: claims.exp,
  };
}

/** Constant-time comparison of two hex strings of any length. */
export function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
