// Key and dashboard routes under /apply: the key (SPEC.md §7 /apply/playground, regenerate) and the credits used per day and feature.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { requireUser, type AuthEnv } from '../accounts';
import { getOrCreateApiKey, regenerateApiKey } from '../accounts/api-keys';
import { AppError, envelope } from '../http/errors';
import { validBody } from '../http/input';
import { usageReport } from '../tasks';
import { ERROR_CODES, ACCOUNT_MESSAGES, MESSAGES } from '../../src/lib/spec';
import { applyKeyBody } from './account-schemas';
import type { AccountsContext } from './accounts-context';
import { bodyCap } from './body-cap';
import { usageBody } from './dashboard-schemas';

/** The body names the user (SPEC.md §7 payload userId); it must be the caller, or nobody could trust it. */
async function ownUserId(c: Context<AuthEnv>): Promise<string> {
  const { userId } = await validBody(c, applyKeyBody);
  const user = c.get('user');
  if (userId !== user.id) throw new AppError(403, ERROR_CODES.forbidden, ACCOUNT_MESSAGES.userIdMismatch);
  return user.id;
}

/** Everything under /apply (where app.ts mounts it). */
export function keyRoutes(ctx: AccountsContext) {
  const { db } = ctx;
  const app = new Hono<AuthEnv>();
  app.use('*', bodyCap(ctx.config.bodyLimitBytes));

  app.post('/playground', requireUser(db), async (c) => {
    const key = await getOrCreateApiKey(db, ctx.keys().encryption, await ownUserId(c));
    return c.json(envelope(0, MESSAGES.successfully, { key }));
  });

  app.post('/playground/regenerate', requireUser(db), async (c) => {
    const key = await regenerateApiKey(db, ctx.keys().encryption, await ownUserId(c));
    return c.json(envelope(0, MESSAGES.successfully, { key }));
  });

  // Credits used per day and per feature, last USAGE.days days, in the caller's time zone.
  app.post('/usage', requireUser(db), async (c) => {
    const { tzOffset } = await validBody(c, usageBody);
    return c.json(envelope(0, MESSAGES.successfully, await usageReport(db, c.get('user').id, tzOffset)));
  });

  return app;
}
