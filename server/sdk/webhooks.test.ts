// The SDK's webhook verifier (src/lib/sdk) accepts what the server signs and refuses tampering, replays and missing
// headers.
import { describe, expect, it } from 'vitest';
import { signWebhook } from '../tasks/webhooks';
import { signature, verifyWebhook, webhookProblem } from '../../src/lib/sdk/index';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
const now = 1_760_000_000;
const body = JSON.stringify({
  type: 'task.succeeded',
  timestamp: '2025-10-09T08:53:20.000Z',
  data: { task: { taskId: 't1' } },
});
const headers = (sig = signWebhook(secret, id, now, body), ts = String(now)) => ({
  'webhook-id': id,
  'webhook-timestamp': ts,
  'webhook-signature': sig,
});

describe('verifyWebhook', () => {
  it('computes the same signature as the server', async () => {
    expect(await signature(secret, id, now, body)).toBe(signWebhook(secret, id, now, body));
  });

  it('accepts a message the server signed, from a plain object or Headers, string or bytes', async () => {
    expect(await verifyWebhook({ secret, headers: headers(), body, nowS: now })).toBe(true);
    expect(
      await verifyWebhook({
        secret,
        headers: new Headers(headers()),
        body: new TextEncoder().encode(body),
        nowS: now + 10,
      }),
    ).toBe(true);
  });

  it('accepts when one of several space-separated signatures matches', async () => {
    expect(
      await verifyWebhook({
        secret,
        headers: headers(`v1,bm90IGl0 ${signWebhook(secret, id, now, body)}`),
        body,
        nowS: now,
      }),
    ).toBe(true);
  });

  it('refuses a changed body, another secret, a stale timestamp and missing headers, saying why', async () => {
    expect(await webhookProblem({ secret, headers: headers(), body: body.replace('t1', 't2'), nowS: now })).toBe(
      'no signature matches',
    );
    expect(
      await verifyWebhook({
        secret: 'whsec_b3RoZXIgc2VjcmV0IG90aGVyIHNlY3JldA==',
        headers: headers(),
        body,
        nowS: now,
      }),
    ).toBe(false);
    expect(await webhookProblem({ secret, headers: headers(), body, nowS: now + 301 })).toContain('tolerance');
    expect(await webhookProblem({ secret, headers: headers(undefined, 'soon'), body, nowS: now })).toContain(
      'Unix seconds',
    );
    expect(await webhookProblem({ secret, headers: { 'webhook-id': id }, body, nowS: now })).toContain('missing');
  });
});
