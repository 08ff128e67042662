// fal webhook signatures: verified against a local JWKS; replays, forgeries and unknown keys refused; the key set
// fetched sparingly.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAL_WEBHOOK } from '../../../src/lib/product-rules';
import { createLogger } from '../../log';
import { FAL_HOOK_HEADERS, falWebhookVerifier, type FalWebhookVerifier } from './fal-webhook-signature';
import {
  falHookHeaders,
  falTestKey,
  startJwksServer,
  type JwksServer,
  type SignedHook,
} from './fal-webhook-signature.fixtures';

const current = falTestKey('current');
const BODY = JSON.stringify({
  request_id: 'req-1',
  status: 'OK',
  payload: { video: { url: 'https://v.fal.media/out.mp4' } },
});

let jwks: JwksServer;
let clock: number;
let verifier: FalWebhookVerifier;

beforeEach(async () => {
  jwks = await startJwksServer([current]);
  clock = Date.now();
  verifier = falWebhookVerifier({ jwksUrl: jwks.url, log: createLogger('silent'), now: () => clock });
});
afterEach(async () => {
  await jwks.close();
});

/** Verifies a hook as the route would: the headers by name, the body as the bytes sent. */
function check(headers: Record<string, string>, body = BODY) {
  return verifier.verify((name) => headers[name], new TextEncoder().encode(body));
}

const signed = (h: Partial<SignedHook> = {}) =>
  falHookHeaders({ key: current, body: BODY, timestamp: Math.floor(clock / 1000), ...h });

describe('fal webhook signature', () => {
  it('a hook signed by a published key is verified, and the key set is fetched once for many hooks', async () => {
    expect(await check(signed())).toEqual({ verified: true });
    expect(await check(signed({ requestId: 'req-2' }))).toEqual({ verified: true });
    expect(jwks.fetches()).toBe(1);
  });

  it('a wrong signature is refused', async () => {
    const headers = signed();
    const flipped = (parseInt(headers[FAL_HOOK_HEADERS.signature]!.slice(0, 2), 16) ^ 1).toString(16).padStart(2, '0');
    headers[FAL_HOOK_HEADERS.signature] = flipped + headers[FAL_HOOK_HEADERS.signature]!.slice(2);
    expect(await check(headers)).toEqual({ verified: false, reason: 'signature' });
  });

  it('a signed field changed after signing is refused (the request id is part of the message)', async () => {
    expect(await check({ ...signed(), [FAL_HOOK_HEADERS.requestId]: 'req-other' })).toEqual({
      verified: false,
      reason: 'signature',
    });
  });

  it('a changed body is refused: the signature covers its SHA-256', async () => {
    expect(await check(signed(), BODY.replace('"OK"', '"ERROR"'))).toEqual({ verified: false, reason: 'signature' });
  });

  it.each([
    ['older', -(FAL_WEBHOOK.toleranceS + 1)],
    ['newer', FAL_WEBHOOK.toleranceS + 1],
  ])('a timestamp %s than the tolerance is refused before any key is fetched', async (_which, offsetS) => {
    expect(await check(signed({ timestamp: Math.floor(clock / 1000) + offsetS }))).toEqual({
      verified: false,
      reason: 'stale',
    });
    expect(jwks.fetches()).toBe(0);
  });

  it('a timestamp just inside the tolerance is accepted', async () => {
    expect(await check(signed({ timestamp: Math.floor(clock / 1000) - FAL_WEBHOOK.toleranceS + 1 }))).toEqual({
      verified: true,
    });
  });

  it.each([
    ['no signature headers', {}],
    ['a signature that is not 64 bytes of hex', { ...signed(), [FAL_HOOK_HEADERS.signature]: 'abc' }],
    ['a timestamp that is not Unix seconds', { ...signed(), [FAL_HOOK_HEADERS.timestamp]: '2026-01-01T00:00:00Z' }],
  ])('a hook with %s is refused as unsigned, without fetching keys', async (_what, headers) => {
    expect(await check(headers)).toEqual({ verified: false, reason: 'unsigned' });
    expect(jwks.fetches()).toBe(0);
  });

  it('a hook signed by an unknown key is refused after exactly one refetch, and forged ones cannot make us refetch within the cooldown', async () => {
    const stranger = falTestKey('stranger');
    expect(await check(signed())).toEqual({ verified: true });
    clock += FAL_WEBHOOK.jwksRefreshCooldownMs;
    expect(await check(signed({ key: stranger }))).toEqual({ verified: false, reason: 'signature' });
    expect(jwks.fetches()).toBe(2);
    for (let i = 0; i < 20; i++) expect((await check(signed({ key: stranger }))).verified).toBe(false);
    expect(jwks.fetches()).toBe(2);
    clock += FAL_WEBHOOK.jwksRefreshCooldownMs;
    await check(signed({ key: stranger }));
    expect(jwks.fetches()).toBe(3);
  });

  it('a rotated key (a new one appears in the JWKS) is accepted after one refetch', async () => {
    const next = falTestKey('next');
    expect(await check(signed())).toEqual({ verified: true });
    jwks.publish([current, next]);
    clock += FAL_WEBHOOK.jwksRefreshCooldownMs;
    expect(await check(signed({ key: next }))).toEqual({ verified: true });
    expect(jwks.fetches()).toBe(2);
    // Both are held now: neither needs another fetch.
    expect(await check(signed({ key: current }))).toEqual({ verified: true });
    expect(await check(signed({ key: next }))).toEqual({ verified: true });
    expect(jwks.fetches()).toBe(2);
  });

  it('hooks that miss at the same moment share one fetch', async () => {
    const next = falTestKey('next');
    expect(await check(signed())).toEqual({ verified: true });
    jwks.publish([next]);
    clock += FAL_WEBHOOK.jwksRefreshCooldownMs;
    const verdicts = await Promise.all(
      Array.from({ length: 5 }, (_, i) => check(signed({ key: next, requestId: `req-${i}` }))),
    );
    expect(verdicts.every((v) => v.verified)).toBe(true);
    expect(jwks.fetches()).toBe(2);
  });

  it('the key set is fetched again once its TTL has passed', async () => {
    expect(await check(signed())).toEqual({ verified: true });
    clock += FAL_WEBHOOK.jwksTtlMs;
    expect(await check(signed())).toEqual({ verified: true });
    expect(jwks.fetches()).toBe(2);
  });

  it('keys out of reach: refused as keys_unavailable, then verified once the key set answers again after the cooldown', async () => {
    jwks.failWith(503);
    expect(await check(signed())).toEqual({ verified: false, reason: 'keys_unavailable' });
    expect(await check(signed())).toEqual({ verified: false, reason: 'keys_unavailable' });
    expect(jwks.fetches()).toBe(1);
    jwks.failWith(null);
    clock += FAL_WEBHOOK.jwksRefreshCooldownMs;
    expect(await check(signed())).toEqual({ verified: true });
  });

  it('a failed refetch keeps the keys already held', async () => {
    expect(await check(signed())).toEqual({ verified: true });
    jwks.failWith(500);
    clock += FAL_WEBHOOK.jwksTtlMs;
    expect(await check(signed())).toEqual({ verified: true });
    expect(jwks.fetches()).toBe(2);
  });
});
