// Checks fal's webhook signatures: ED25519 over the fields fal's docs name, with keys from fal's JWKS (cached,
// refetched on a miss at most once a cooldown).
import { createHash, createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { FAL_WEBHOOK } from '../../../src/lib/product-rules';
import type { Logger } from '../../log';

/*
 * The contract, from https://docs.fal.ai/model-apis/model-endpoints/webhooks ("Verifying Your Webhook"):
 * - headers X-Fal-Webhook-Request-Id, -User-Id, -Timestamp (Unix seconds) and -Signature (hex ED25519 signature);
 * - the signed message is request id, user id, timestamp and the hex SHA-256 of the raw body, joined by "\n";
 * - the public keys are the OKP/Ed25519 JWKs of fal's JWKS; the hook names no key id, so every key is tried;
 * - the timestamp must be within 5 minutes of now.
 */

/** Why a hook was not believed; the label of dreamapi_provider_webhooks_unverified_total. */
export type FalHookRejection = 'unsigned' | 'stale' | 'signature' | 'keys_unavailable';

export type FalHookVerdict = { verified: true } | { verified: false; reason: FalHookRejection };

/** The signature headers fal sends, lower-cased as node:http gives them. */
export const FAL_HOOK_HEADERS = {
  requestId: 'x-fal-webhook-request-id',
  userId: 'x-fal-webhook-user-id',
  timestamp: 'x-fal-webhook-timestamp',
  signature: 'x-fal-webhook-signature',
} as const;

/** What the signature headers must hold before any key is tried: an ED25519 signature is 64 bytes, 128 hex digits. */
const signedHeaders = z.object({
  requestId: z.string().min(1).max(200),
  userId: z.string().max(200),
  timestamp: z.string().regex(/^\d{1,12}$/),
  signature: z.string().regex(/^[0-9a-fA-F]{128}$/),
});

/** fal's key set; keys of another type (or unreadable ones) are skipped, not fatal. */
const jwksBody = z.object({
  keys: z.array(z.looseObject({ kty: z.string(), crv: z.string().optional(), x: z.string().optional() })).max(50),
});

export interface FalWebhookVerifierOptions {
  /**
   * FAL_WEBHOOK_JWKS_URL: an operator's setting, fetched like the other fal URLs (not a user's URL, so not the outbound
   * guard).
   */
  jwksUrl: string;
  log: Logger;
  /** The clock, in ms; tests move it. */
  now?: () => number;
}

export interface FalWebhookVerifier {
  /** Whether `body` (the exact bytes received) came from fal, judged by the headers it came with. */
  verify(header: (name: string) => string | undefined, body: Uint8Array): Promise<FalHookVerdict>;
}

/** Reads at most `maxBytes` of a response body; a larger one is refused rather than buffered. */
async function cappedText(res: Response, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new Error(`the key set is over ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function fetchKeys(url: string): Promise<KeyObject[]> {
  const res = await fetch(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(FAL_WEBHOOK.jwksTimeoutMs),
  });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`answered ${res.status}`);
  }
  const parsed = jwksBody.safeParse(JSON.parse(await cappedText(res, FAL_WEBHOOK.jwksMaxBytes)));
  if (!parsed.success) throw new Error('the answer is not a JWKS');
  const keys: KeyObject[] = [];
  for (const jwk of parsed.data.keys) {
    if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.x) continue;
    try {
      keys.push(createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }));
    } catch {
      // One unreadable key must not cost the others.
    }
  }
  if (keys.length === 0) throw new Error('the key set holds no Ed25519 key');
  return keys;
}

export function falWebhookVerifier(o: FalWebhookVerifierOptions): FalWebhookVerifier {
  const now = o.now ?? Date.now;
  let keys: KeyObject[] = [];
  let fetchedAt = -Infinity;
  /**
   * Last fetch started, whether it worked or not: a JWKS that is down is not asked again before the cooldown either.
   */
  let triedAt = -Infinity;
  let inFlight: Promise<void> | null = null;

  /** Fetches the key set once for every caller waiting on it; a failure keeps the keys held so far. */
  function refresh(): Promise<void> {
    if (inFlight) return inFlight;
    triedAt = now();
    inFlight = fetchKeys(o.jwksUrl)
      .then((fresh) => {
        keys = fresh;
        fetchedAt = now();
      })
      .catch((error: unknown) => {
        o.log.warn('fal webhook keys could not be fetched', {
          url: o.jwksUrl,
          reason: error instanceof Error ? error.message : String(error),
          keptKeys: keys.length,
        });
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  }

  /** Joins a fetch under way, or starts one when the last began at least a cooldown ago. */
  async function refetchUnlessRecent(): Promise<void> {
    if (inFlight || now() - triedAt >= FAL_WEBHOOK.jwksRefreshCooldownMs) await refresh();
  }

  return {
    async verify(header, body) {
      const fields = signedHeaders.safeParse({
        requestId: header(FAL_HOOK_HEADERS.requestId),
        userId: header(FAL_HOOK_HEADERS.userId),
        timestamp: header(FAL_HOOK_HEADERS.timestamp),
        signature: header(FAL_HOOK_HEADERS.signature),
      });
      if (!fields.success) return { verified: false, reason: 'unsigned' };
      const { requestId, userId, timestamp, signature } = fields.data;
      // Checked before any key work, so a replayed or back-dated hook costs nothing and triggers no fetch.
      if (Math.abs(now() - Number(timestamp) * 1000) > FAL_WEBHOOK.toleranceS * 1000)
        return { verified: false, reason: 'stale' };

      const message = Buffer.from(
        [requestId, userId, timestamp, createHash('sha256').update(body).digest('hex')].join('\n'),
        'utf8',
      );
      const signatureBytes = Buffer.from(signature, 'hex');
      const signedByOneOf = (set: KeyObject[]) =>
        set.some((key) => verifySignature(null, message, key, signatureBytes));

      if (now() - fetchedAt >= FAL_WEBHOOK.jwksTtlMs) await refetchUnlessRecent();
      const tried = keys;
      if (signedByOneOf(tried)) return { verified: true };
      // fal names no key id, so a hook no held key verifies may be signed by a key published since: fetch once and
      // try again. The cooldown is what stops forged hooks from making us fetch the key set on every request.
      await refetchUnlessRecent();
      if (keys !== tried && signedByOneOf(keys)) return { verified: true };
      return { verified: false, reason: keys.length === 0 ? 'keys_unavailable' : 'signature' };
    },
  };
}
