// Verified tokens remembered per process: a device sends many batches under one token, so the token's signature
// check, claims parsing and batch-key derivation run once per token instead of once per batch.
import { createSecretKey, type KeyObject } from 'node:crypto';
import { batchKey, verifyToken, type TokenClaims } from './token';

export interface VerifiedToken {
  claims: TokenClaims;
  /** The batch key ak as a key object: hashing and deciphering with a ready key skip preparing it on every call. */
  ak: KeyObject;
  /** The same key as 64 hex characters, for the ingest thread (./ingest-pool), which keeps its own key objects. */
  akHex: string;
}

/** Tokens remembered at most; the oldest remembered is forgotten first (it is checked again when it comes back). */
export const VERIFIED_TOKENS_MAX = 10_000;

export function verifiedTokens(secret: () => string, max = VERIFIED_TOKENS_MAX) {
  const known = new Map<string, VerifiedToken>();
  return {
    /** The claims and batch key of a token this server signed that has not expired, else null (as verifyToken). */
    open(token: string, now: number): VerifiedToken | null {
      let session = known.get(token);
      if (session === undefined) {
        const claims = verifyToken(secret(), token, now);
        if (!claims) return null;
        const akHex = batchKey(secret(), token);
        session = { claims, ak: createSecretKey(Buffer.from(akHex, 'hex')), akHex };
        if (known.size >= max) known.delete(known.keys().next().value!);
        known.set(token, session);
      }
      if (session.claims.exp > now) return session;
      known.delete(token);
      return null;
    },
  };
}
