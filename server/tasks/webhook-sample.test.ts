// The reference's webhook check is real code: run as shown, it accepts what the server signs and refuses anything else.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook } from './webhooks';
import { WEBHOOKS } from '../../src/lib/product-rules';
import { WEBHOOK_VERIFY_SAMPLE } from '../../src/lib/api-contract';

type Verify = (secret: string, headers: Headers, rawBody: string) => boolean;

/** The sample's verifyWebhook, compiled from the text a developer copies (its import line given as parameters). */
function sampleVerify(): Verify {
  const code = WEBHOOK_VERIFY_SAMPLE.split('// In your handler:')[0]!.replace(/^import .*$/m, '');
  return new Function('createHmac', 'timingSafeEqual', 'Buffer', `${code}\nreturn verifyWebhook;`)(
    createHmac,
    timingSafeEqual,
    Buffer,
  ) as Verify;
}

const secret = `${WEBHOOKS.secretPrefix}${Buffer.alloc(24, 9).toString('base64')}`;
const body = JSON.stringify({ type: 'task.succeeded', data: { task: { taskId: 't1' } } });
const signed = (timestampS: number, payload = body) =>
  new Headers({
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(timestampS),
    'webhook-signature': signWebhook(secret, 'msg_1', timestampS, payload),
  });

describe('the webhook verification sample', () => {
  const verify = sampleVerify();
  const now = Math.floor(Date.now() / 1000);

  it('accepts a webhook the server signed', () => {
    expect(verify(secret, signed(now), body)).toBe(true);
  });

  it('refuses a changed body, another secret, an old timestamp and missing headers', () => {
    expect(verify(secret, signed(now), body.replace('t1', 't2'))).toBe(false);
    expect(verify(`${WEBHOOKS.secretPrefix}${Buffer.alloc(24, 1).toString('base64')}`, signed(now), body)).toBe(false);
    expect(verify(secret, signed(now - WEBHOOKS.toleranceS - 10), body)).toBe(false);
    expect(verify(secret, new Headers(), body)).toBe(false);
  });
});
