// Credit routes: POST /user/invitation redeems a code (SPEC.md §7, §9), POST /user/credits/history pages the ledger.
import { Hono } from 'hono';
import { redeemInvitation, requireUser, type AuthEnv } from '../accounts';
import { creditHistory } from '../credits';
import { envelope } from '../http/errors';
import { validBody } from '../http/input';
import { MESSAGES } from '../../src/lib/product-rules';
import { historyBody, invitationBody } from './account-schemas';
import type { AccountsContext } from './accounts-context';

export function creditRoutes(ctx: AccountsContext) {
  const { db } = ctx;
  const app = new Hono<AuthEnv>();

  app.post('/invitation', requireUser(db, { refuseSuspended: true }), async (c) => {
    const { code } = await validBody(c, invitationBody);
    const result = await redeemInvitation(db, { userId: c.get('user').id, code });
    return c.json(envelope(0, MESSAGES.redeemSuccessfully, result));
  });

  app.post('/credits/history', requireUser(db), async (c) => {
    const { page, pageSize } = await validBody(c, historyBody);
    const user = c.get('user');
    const history = await creditHistory(db, user.id, page, pageSize);
    return c.json(envelope(0, MESSAGES.successfully, { ...history, balance: user.credits }));
  });

  return app;
}
