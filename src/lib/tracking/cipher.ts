// The batch cipher (crypto-js, worker only): AES-256-CBC with a random IV, and the HMAC `sign`
// (docs/tracking-protocol.md).
import AES from 'crypto-js/aes';
import Base64 from 'crypto-js/enc-base64';
import Hex from 'crypto-js/enc-hex';
import Utf8 from 'crypto-js/enc-utf8';
import HmacSHA256 from 'crypto-js/hmac-sha256';
import SHA256 from 'crypto-js/sha256';
// The file, not the api-contract index: the index would pull zod into the worker bundle.
import { messageSignedText } from '../api-contract/tracking';
import { randomHex } from './entry';
import type { TrackEntry } from './types';

const AK_PATTERN = /^[0-9a-f]{64}$/;

/** msgEncrypt = base64(IV ‖ AES-256-CBC-PKCS7(key = hex-decoded ak, IV, UTF-8 JSON of the entries)). */
export function sealEntries(entries: readonly TrackEntry[], ak: string): string {
  if (!AK_PATTERN.test(ak)) throw new Error('ak must be 64 lowercase hex characters (a 256-bit key)');
  const key = Hex.parse(ak);
  const iv = Hex.parse(randomHex(16));
  const encrypted = AES.encrypt(Utf8.parse(JSON.stringify(entries)), key, { iv });
  return Base64.stringify(iv.clone().concat(encrypted.ciphertext));
}

/**
 * track_info sign over signedText (src/lib/api-contract/tracking.ts): HMAC-SHA256 keyed with the ak bytes, hex. Proves
 * integrity and token flow, not a trusted sender.
 */
export function signBatch(text: string, ak: string): string {
  return Hex.stringify(HmacSHA256(text, Hex.parse(ak)));
}

/** message sign: SHA-256 hex of messageSignedText, a checksum only (no secret exists before a token). */
export function signMessage(appKey: string, deviceId: string, message: string): string {
  return Hex.stringify(SHA256(messageSignedText(appKey, deviceId, message)));
}
