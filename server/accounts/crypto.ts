// Small crypto helpers for accounts: random tokens, hashes for lookups, and AES-256-GCM for keys kept at rest.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';

/** A random URL-safe token of `bytes` bytes of entropy (sessions, API keys, invitation codes). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A random string of `digits` decimal digits, leading zeros kept (SPEC.md §9 "Email code 4 digits"). */
export function randomDigits(digits: number): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}

/** For high-entropy secrets (session tokens, API keys) a plain SHA-256 is enough to store them unguessably. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Keyed hash for low-entropy values (4-digit codes): without the server secret a leaked table reveals nothing. */
export function hmacHex(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

export function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

const VERSION = 'v1';

/** Encrypts text as "v1.<iv>.<tag>.<ciphertext>" (base64url parts); the version allows key rotation later. */
export function encrypt(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

export function decrypt(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('unrecognised ciphertext format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
