// The webhook check the API reference shows: plain Node, no SDK, the same signature the server makes
// (server/tasks/webhooks.ts).
import { WEBHOOKS } from '../product-rules';

/** Node code a developer can paste: verifyWebhook(secret, headers, rawBody), then its use in a handler. */
export const WEBHOOK_VERIFY_SAMPLE = `import { createHmac, timingSafeEqual } from 'node:crypto';

// Checks a webhook's signature on the raw body, before parsing it.
function verifyWebhook(secret, headers, rawBody) {
  const id = headers.get('webhook-id');
  const timestamp = headers.get('webhook-timestamp');
  if (!id || !timestamp || Math.abs(Date.now() / 1000 - Number(timestamp)) > ${WEBHOOKS.toleranceS}) return false;
  const key = Buffer.from(secret.slice('${WEBHOOKS.secretPrefix}'.length), 'base64');
  const expected = Buffer.from('v1,' + createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest('base64'));
  return (headers.get('webhook-signature') ?? '').split(' ').some((given) =>
    given.length === expected.length && timingSafeEqual(Buffer.from(given), expected));
}

// In your handler:
if (!verifyWebhook(process.env.DREAMAPI_WEBHOOK_SECRET, request.headers, rawBody)) {
  return new Response('bad signature', { status: 400 });
}`;
