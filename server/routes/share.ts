// Share-link routes under /share: the owner creates, lists and revokes links to a result; anyone with a link views it
// (no account).
import { Hono } from 'hono';
import { lazyServerKeys, requireUser, type AuthEnv } from '../accounts';
import { AppError, envelope } from '../http/errors';
import { validBody } from '../http/input';
import { rateLimit } from '../http/rate-limit';
import { createShareLinks } from '../tasks';
import { ERROR_CODES, HISTORY_MESSAGES, MESSAGES, SHARE_LINKS } from '../../src/lib/product-rules';
import type { AppDeps } from './deps';
import { bodyCap } from './body-cap';
import { createShareBody, shareIdBody, shareTaskBody } from './dashboard-schemas';

/** Where app.ts mounts these routes. */
export const SHARE_PREFIX = '/share';

const ok = (data: unknown) => envelope(0, MESSAGES.successfully, data);

export function shareRoutes(deps: AppDeps) {
  const { db, media } = deps.tasks;
  const keys = lazyServerKeys(deps.config);
  const links = createShareLinks({ db, media, secret: () => keys().hashing, siteUrl: deps.config.siteUrl });
  const app = new Hono<AuthEnv>();
  app.use('*', bodyCap(deps.config.bodyLimitBytes));

  // Public: what the shared-result page shows. Per-IP budget, since no account is asked for.
  const views = rateLimit({
    limit: SHARE_LINKS.viewsPerMinute,
    trustProxy: deps.config.trustProxy,
    store: deps.rateLimits?.store('share'),
    account: async () => undefined,
  });
  app.get('/v1/view', views, async (c) => {
    const token = c.req.query(SHARE_LINKS.tokenParam) ?? '';
    if (token.length === 0 || token.length > 200)
      throw new AppError(404, ERROR_CODES.notFound, HISTORY_MESSAGES.shareNotFound);
    return c.json(ok(await links.view(token)));
  });

  // The owner's calls. A suspended account may list and revoke its links, not publish new ones.
  app.post('/v1/create', requireUser(db, { refuseSuspended: true }), async (c) => {
    const { taskId, days } = await validBody(c, createShareBody);
    return c.json(ok(await links.create(c.get('user').id, taskId, days)));
  });
  app.post('/v1/list', requireUser(db), async (c) => {
    const { taskId } = await validBody(c, shareTaskBody);
    return c.json(ok({ list: await links.list(c.get('user').id, taskId) }));
  });
  app.post('/v1/revoke', requireUser(db), async (c) => {
    const { shareId } = await validBody(c, shareIdBody);
    await links.revoke(c.get('user').id, shareId);
    return c.json(ok(null));
  });

  return app;
}
