// Opens an encrypted batch with Node's crypto: checks the HMAC `sign`, then AES-256-CBC decrypts base64(IV ‖
// ciphertext).
import { createDecipheriv, createHash, createHmac, type KeyObject } from 'node:crypto';
import { messageSignedText } from '../../src/lib/api-contract';
import { sameHex } from './token';

export class CipherError extends Error {
  override name = 'CipherError';
}

const BLOCK = 16;

/** The batch key: 64 hex characters, or a key object made from them (./sessions), which is faster to use. */
export type BatchKey = string | KeyObject;
const keyOf = (ak: BatchKey) => (typeof ak === 'string' ? Buffer.from(ak, 'hex') : ak);

/** Whether `sign` is the HMAC of `text` (signedText of src/lib/api-contract) under the batch key ak. */
export function batchSignatureValid(text: string, ak: BatchKey, sign: string): boolean {
  const expected = createHmac('sha256', keyOf(ak)).update(text, 'utf8').digest('hex');
  return sameHex(expected, sign.toLowerCase());
}

/** Whether `sign` is the message checksum: SHA-256 hex of messageSignedText (the browser's signMessage). */
export function messageSignatureValid(appKey: string, deviceId: string, message: string, sign: string): boolean {
  const expected = createHash('sha256')
    .update(messageSignedText(appKey, deviceId, message), 'utf8')
    .digest('hex');
  return sameHex(expected, sign.toLowerCase());
}

/** The plaintext of msgEncrypt; CipherError for anything that is not a whole, correctly padded ciphertext. */
export function openBatch(msgEncrypt: string, ak: BatchKey): string {
  const raw = Buffer.from(msgEncrypt, 'base64');
  // Base64 exactly as encoders write it: the decoder skips what is not base64, so anything else fails to round-trip.
  // (Several times cheaper than a pattern over a batch-sized string.)
  if (raw.length === 0 || raw.toString('base64') !== msgEncrypt) throw new CipherError('msgEncrypt: is not base64');
  if (raw.length < 2 * BLOCK || raw.length % BLOCK !== 0) {
    throw new CipherError('msgEncrypt: is truncated (expected a 16-byte IV and whole 16-byte blocks)');
  }
  try {
    const decipher = createDecipheriv('aes-256-cbc', keyOf(ak), raw.subarray(0, BLOCK));
    const plain = Buffer.concat([decipher.update(raw.subarray(BLOCK)), decipher.final()]);
    return new TextDecoder('utf-8', { fatal: true }).decode(plain);
  } catch {
    throw new CipherError("msgEncrypt: does not decrypt with this token's key");
  }
}
