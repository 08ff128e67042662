// Public API calls of the developer tools (mounted in public-api.ts after the key check): key credit caps, webhook log
// and redelivery, usage export.
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import type { AuthEnv } from '../accounts';
import { apiKeyIdOf } from '../accounts/api-keys';
import { readBody } from '../http/input';
import {
  keyCapViews,
  listWebhookAttempts,
  redeliverWebhook,
  setKeyCaps,
  textStream,
  usageJson,
  usagePages,
} from '../tasks';
import { keyCapsBody, redeliverBody, usageExportBody, webhookDeliveriesBody } from '../../src/lib/api-contract';
import type { AppDeps } from './deps';
import { body as checkedBody, success } from './public-api-envelope';

/** As the other public calls: the same envelope, and a bad field is 10192 "Illegal parameter" naming it. */
const body = async <S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> =>
  checkedBody(schema, await readBody(c));

/** The read-only calls here, which a suspended account may still make (public-api.ts READS). */
export const DEVELOPER_API_READS = ['/keys/caps', '/webhooks/deliveries', '/usage/export'];

export function developerApiRoutes(deps: AppDeps) {
  const { db } = deps.tasks;
  const outbound = { allowPrivate: deps.config.tasks.outboundAllowPrivate };
  const app = new Hono<AuthEnv>();

  app.post('/keys/caps', async (c) => {
    await readBody(c);
    return c.json(success({ list: await keyCapViews(db, c.get('user').id) }));
  });

  // A key may tighten its own caps, never loosen them (key-caps.ts setKeyCaps): a leaked key cannot lift its limit.
  app.post('/keys/set_caps', async (c) => {
    const { keyId, ...caps } = await body(c, keyCapsBody);
    const user = c.get('user');
    const caller = apiKeyIdOf(user);
    return c.json(success(await setKeyCaps(db, user.id, keyId ?? caller ?? '', caps, caller)));
  });

  app.post('/webhooks/deliveries', async (c) => {
    const query = await body(c, webhookDeliveriesBody);
    return c.json(success(await listWebhookAttempts(db, c.get('user').id, query)));
  });

  app.post('/webhooks/redeliver', async (c) => {
    const { deliveryId } = await body(c, redeliverBody);
    return c.json(success(await redeliverWebhook(db, c.get('user').id, deliveryId, outbound)));
  });

  // Streamed: one page of rows is read from the database at a time, whatever the range (server/tasks/usage-export.ts).
  app.post('/usage/export', async (c) => {
    const range = await body(c, usageExportBody);
    const userId = c.get('user').id;
    const stream = textStream(usageJson(range, usagePages(db, userId, range)), (error) =>
      deps.log.error('usage export failed mid-stream', {
        userId,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    return c.body(stream, 200, { 'content-type': 'application/json; charset=utf-8' });
  });

  return app;
}
