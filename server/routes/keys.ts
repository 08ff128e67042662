// Key and dashboard routes under /apply: the default key (SPEC.md §7 /apply/playground, regenerate), named keys, the
// request log and usage.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { requireUser, type AuthEnv } from '../accounts';
import { createApiKey, getOrCreateApiKey, listApiKeys, regenerateApiKey, revokeApiKey } from '../accounts/api-keys';
import { apiRequestPage, type RequestLog } from '../accounts/request-log';
import { AppError, envelope } from '../http/errors';
import { validBody } from '../http/input';
import { usageReport } from '../tasks';
import { ERROR_CODES, ACCOUNT_MESSAGES, MESSAGES } from '../../src/lib/product-rules';
import { applyKeyBody } from './account-schemas';
import type { AccountsContext } from './accounts-context';
import { bodyCap } from './body-cap';
import { createKeyBody, keyIdBody, requestsBody, usageBody } from './dashboard-schemas';

/** The body names the user (SPEC.md §7 payload userId); it must be the caller, or nobody could trust it. */
async function ownUserId(c: Context<AuthEnv>): Promise<string> {
  const { userId } = await validBody(c, applyKeyBody);
  const user = c.get('user');
  if (userId !== user.id) throw new AppError(403, ERROR_CODES.forbidden, ACCOUNT_MESSAGES.userIdMismatch);
  return user.id;
}

const ok = (data: unknown) => envelope(0, MESSAGES.successfully, data);

/** Everything under /apply (where app.ts mounts it). */
export function keyRoutes(ctx: AccountsContext, requestLog: RequestLog) {
  const { db } = ctx;
  const app = new Hono<AuthEnv>();
  app.use('*', bodyCap(ctx.config.bodyLimitBytes));
  const encryption = () => ctx.keys().encryption;

  app.post('/playground', requireUser(db), async (c) => {
    const key = await getOrCreateApiKey(db, encryption(), await ownUserId(c));
    return c.json(ok({ key }));
  });

  app.post('/playground/regenerate', requireUser(db), async (c) => {
    const key = await regenerateApiKey(db, encryption(), await ownUserId(c));
    return c.json(ok({ key }));
  });

  // Named keys beside the default one: list (the default key first, made if missing), create (shown once), revoke.
  app.post('/keys/list', requireUser(db), async (c) => {
    const userId = c.get('user').id;
    await getOrCreateApiKey(db, encryption(), userId);
    // A key's last use is written with the log: what this process still holds is written first.
    await requestLog.flush();
    return c.json(ok({ list: await listApiKeys(db, encryption(), userId) }));
  });
  app.post('/keys/create', requireUser(db), async (c) => {
    const { name } = await validBody(c, createKeyBody);
    return c.json(ok(await createApiKey(db, encryption(), c.get('user').id, name)));
  });
  app.post('/keys/revoke', requireUser(db), async (c) => {
    const { keyId } = await validBody(c, keyIdBody);
    await revokeApiKey(db, c.get('user').id, keyId);
    return c.json(ok(null));
  });

  // The public API calls made with the user's keys, newest first.
  app.post('/requests', requireUser(db), async (c) => {
    const { page, pageSize } = await validBody(c, requestsBody);
    await requestLog.flush();
    return c.json(ok(await apiRequestPage(db, c.get('user').id, page, pageSize)));
  });

  // Credits used per day and per feature, last USAGE.days days, in the caller's time zone.
  app.post('/usage', requireUser(db), async (c) => {
    const { tzOffset } = await validBody(c, usageBody);
    return c.json(ok(await usageReport(db, c.get('user').id, tzOffset)));
  });

  return app;
}
