// Dashboard calls of the developer tools under /apply (session token): key credit caps, the webhook log with
// redelivery, the CSV usage export.
import { Hono } from 'hono';
import { z } from 'zod';
import { requireUser, type AuthEnv } from '../accounts';
import { envelope } from '../http/errors';
import { validBody } from '../http/input';
import {
  keyCapViews,
  listWebhookAttempts,
  redeliverWebhook,
  setKeyCaps,
  textStream,
  usageCsv,
  usagePages,
} from '../tasks';
import { MESSAGES, USAGE_EXPORT_MESSAGES } from '../../src/lib/product-rules';
import { keyCapsBody, redeliverBody, usageExportBody, webhookDeliveriesBody } from '../../src/lib/api-contract';
import type { AccountsContext } from './accounts-context';
import { bodyCap } from './body-cap';

const ok = (data: unknown) => envelope(0, MESSAGES.successfully, data);
/** The dashboard names the key it changes. */
const dashboardCapsBody = keyCapsBody.extend({ keyId: z.string().trim().min(1, 'is required').max(64) });

/** Mounted at /apply beside routes/keys.ts. */
export function developerDashboardRoutes(ctx: AccountsContext, outboundAllowPrivate: boolean) {
  const { db } = ctx;
  const app = new Hono<AuthEnv>();
  app.use('*', bodyCap(ctx.config.bodyLimitBytes));

  app.post('/keys/caps', requireUser(db), async (c) => c.json(ok({ list: await keyCapViews(db, c.get('user').id) })));

  app.post('/keys/set_caps', requireUser(db), async (c) => {
    const { keyId, ...caps } = await validBody(c, dashboardCapsBody);
    return c.json(ok(await setKeyCaps(db, c.get('user').id, keyId, caps)));
  });

  app.post('/webhooks/deliveries', requireUser(db), async (c) => {
    const query = await validBody(c, webhookDeliveriesBody);
    return c.json(ok(await listWebhookAttempts(db, c.get('user').id, query)));
  });

  app.post('/webhooks/redeliver', requireUser(db), async (c) => {
    const { deliveryId } = await validBody(c, redeliverBody);
    return c.json(ok(await redeliverWebhook(db, c.get('user').id, deliveryId, { allowPrivate: outboundAllowPrivate })));
  });

  // A CSV download, streamed a page of rows at a time (server/tasks/usage-export.ts).
  app.post('/usage/export', requireUser(db), async (c) => {
    const range = await validBody(c, usageExportBody);
    const userId = c.get('user').id;
    const stream = textStream(usageCsv(usagePages(db, userId, range)), (error) =>
      ctx.log.error('usage export failed mid-stream', {
        userId,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    return c.body(stream, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${USAGE_EXPORT_MESSAGES.fileName(range.from, range.to)}"`,
    });
  });

  return app;
}
