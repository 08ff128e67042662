// Opens an encrypted batch with Node's crypto: checks the HMAC `sign`, then AES-256-CBC decrypts base64(IV ‖ ciphertext).
import { createDecipheriv, createHmac } from 'node:crypto';
import { sameHex } from './token';

export class CipherError extends Error {
  override name = 'CipherError';
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BLOCK = 16;

/** The text `sign` covers; the browser builds the same (src/lib/tracking/cipher.ts signedText). */
export function signedText(body: { token: string; produceId: string; queueId: string; sendTime: number; batchCount: number; msgEncrypt: string }): string {
  return [body.token, body.produceId, body.queueId, String(body.sendTime), String(body.batchCount), body.msgEncrypt].join('\n');
}

export function batchSignatureValid(text: string, ak: string, sign: string): boolean {
  const expected = createHmac('sha256', Buffer.from(ak, 'hex')).update(text, 'utf8').digest('hex');
  return sameHex(expected, sign.toLowerCase());
}

/** The plaintext of msgEncrypt; CipherError for anything that is not a whole, correctly padded ciphertext. */
export function openBatch(msgEncrypt: string, ak: string): string {
  if (!BASE64.test(msgEncrypt) || msgEncrypt.length % 4 !== 0) throw new CipherError('msgEncrypt: is not base64');
  const raw = Buffer.from(msgEncrypt, 'base64');
  if (raw.length < 2 * BLOCK || raw.length % BLOCK !== 0) {
    throw new CipherError('msgEncrypt: is truncated (expected a 16-byte IV and whole 16-byte blocks)');
  }
  try {
    const decipher = createDecipheriv('aes-256-cbc', Buffer.from(ak, 'hex'), raw.subarray(0, BLOCK));
    const plain = Buffer.concat([decipher.update(raw.subarray(BLOCK)), decipher.final()]);
    return new TextDecoder('utf-8', { fatal: true }).decode(plain);
  } catch {
    throw new CipherError('msgEncrypt: does not decrypt with this token\'s key');
  }
}
