// A stand-in for fal's webhook signer and key set: ED25519 keys made here, a local JWKS server, hooks signed the way
// fal's docs describe.
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAL_HOOK_HEADERS } from './fal-webhook-signature';

/*
 * Stand-in rules, from https://docs.fal.ai/model-apis/model-endpoints/webhooks ("Verifying Your Webhook"), read through
 * the search index's copy of that page; fal-ai/fal-js (commit 381105e138b85502b528fb8f6c16d909e30e462a) and fal-ai/fal
 * (commit c6f0afaaceec981d2461474a81467552adb0b084) carry no verification code to check it against:
 * - the message is request id, user id, Unix-seconds timestamp and the hex SHA-256 of the raw body, joined by "\n";
 * - the signature is ED25519 over it, sent hex-encoded in X-Fal-Webhook-Signature;
 * - the key set is a JWKS of OKP/Ed25519 keys (the `kid` here is ours: fal's hooks name no key).
 */

export interface FalTestKey {
  kid: string;
  privateKey: KeyObject;
  /** The public half as a JWK, the way a JWKS lists it. */
  jwk: JsonWebKey & { kid: string };
}

export function falTestKey(kid: string): FalTestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { kid, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid } };
}

export interface SignedHook {
  key: FalTestKey;
  body: string;
  requestId?: string;
  userId?: string;
  /** Unix seconds; now unless given. */
  timestamp?: number;
}

/** The four headers fal sends with a hook, signed over `body` by `key`. */
export function falHookHeaders(h: SignedHook): Record<string, string> {
  const requestId = h.requestId ?? 'req-1';
  const userId = h.userId ?? 'user-1';
  const timestamp = String(h.timestamp ?? Math.floor(Date.now() / 1000));
  const bodyHash = createHash('sha256').update(h.body).digest('hex');
  const signature = sign(
    null,
    Buffer.from([requestId, userId, timestamp, bodyHash].join('\n')),
    h.key.privateKey,
  ).toString('hex');
  return {
    [FAL_HOOK_HEADERS.requestId]: requestId,
    [FAL_HOOK_HEADERS.userId]: userId,
    [FAL_HOOK_HEADERS.timestamp]: timestamp,
    [FAL_HOOK_HEADERS.signature]: signature,
  };
}

export interface JwksServer {
  url: string;
  /** What the server publishes from now on. */
  publish(keys: FalTestKey[]): void;
  /** Answer every request with this status instead (a key set that is down), or null to serve again. */
  failWith(status: number | null): void;
  /** Requests received so far. */
  fetches(): number;
  close(): Promise<void>;
}

/** A JWKS endpoint on 127.0.0.1, counting the requests it answers. */
export async function startJwksServer(keys: FalTestKey[]): Promise<JwksServer> {
  let published = keys;
  let failure: number | null = null;
  let count = 0;
  const server = createServer((_req, res) => {
    count++;
    if (failure !== null) {
      res.writeHead(failure).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ keys: published.map((k) => k.jwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    publish: (next) => {
      published = next;
    },
    failWith: (status) => {
      failure = status;
    },
    fetches: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
