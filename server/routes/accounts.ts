// Email sign-in (code or one-time link), sessions and user info: POST /user/code, /user/email/login, /user/info,
// /user/infoUpdate, /user/infoAsked, /user/exit/login (SPEC.md §7).
import { Hono } from 'hono';
import { requireUser, type AuthEnv } from '../accounts';
import { consumeLoginCode, consumeLoginLink, issueLoginCode, withdrawLoginCode } from '../accounts/codes';
import { signInLink } from '../accounts/mailer';
import { createSession, hasEarlierSession, revokeSession } from '../accounts/sessions';
import { findOrCreateUserByEmail, toUserInfo } from '../accounts/users';
import { AppError, envelope } from '../http/errors';
import { parseInput, readBody, validBody } from '../http/input';
import { clientBudgetKey } from '../http/rate-limit';
import { ERROR_CODES, MESSAGES } from '../../src/lib/product-rules';
import { emailLoginBody, infoUpdateBody, linkLoginBody, sendCodeBody } from './account-schemas';
import { countryCode, type AccountsContext } from './accounts-context';
import { bodyCap } from './body-cap';
import { creditRoutes } from './credits';
import { oauthRoutes } from './oauth';

function sessionRoutes(ctx: AccountsContext) {
  const { db, config, log } = ctx;
  const app = new Hono<AuthEnv>();

  app.post('/code', async (c) => {
    const { email } = await validBody(c, sendCodeBody);
    const issued = await issueLoginCode(db, ctx.keys().hashing, { email, ip: clientBudgetKey(c, config.trustProxy) });
    try {
      await ctx.mailer.sendLoginCode(email, { code: issued.code, link: signInLink(config.siteUrl, issued.linkToken) });
    } catch (error) {
      log.error('login code mail failed', { error: error instanceof Error ? error.message : String(error) });
      await withdrawLoginCode(db, issued.id);
      // SPEC.md §8 'Sent Failed'; 503 because the mail server, not the request, is at fault.
      throw new AppError(503, ERROR_CODES.unavailable, MESSAGES.sentFailed);
    }
    // The browser sends the attempt id back with the code, so guesses are tied to the attempt they were made on.
    return c.json(envelope(0, MESSAGES.sentSuccessfully, { attemptId: issued.attemptId }));
  });

  // Email and code (SPEC.md §7) with the attempt id, or the token of the mailed one-time link.
  app.post('/email/login', async (c) => {
    const raw = await readBody(c);
    let email: string;
    let body: { referer?: string; refererUrl?: string };
    if (raw.linkToken !== undefined) {
      const link = parseInput(linkLoginBody, raw);
      email = await consumeLoginLink(db, { token: link.linkToken });
      body = link;
    } else {
      const login = parseInput(emailLoginBody, raw);
      await consumeLoginCode(db, ctx.keys().hashing, { ...login, ip: clientBudgetKey(c, config.trustProxy) });
      email = login.email;
      body = login;
    }
    const { user } = await findOrCreateUserByEmail(
      db,
      email,
      { referer: body.referer, refererUrl: body.refererUrl, countryCode: countryCode(c, config) },
      { signupCredits: config.signupCredits },
    );
    const token = await createSession(db, user.id);
    return c.json(envelope(0, MESSAGES.successfully, { userId: user.id, token }));
  });

  app.post('/info', requireUser(db), async (c) => {
    const user = c.get('user');
    const token = c.get('sessionToken') ?? '';
    const isOld = c.get('signedInBefore') ?? (await hasEarlierSession(db, user.id));
    return c.json(
      envelope(0, MESSAGES.successfully, toUserInfo(user, { token, isOld, countryCode: countryCode(c, config) })),
    );
  });

  app.post('/infoUpdate', requireUser(db), async (c) => {
    const body = await validBody(c, infoUpdateBody);
    await db
      .updateTable('users')
      .set({ company: body.company.trim(), channel: body.channel ?? null, updated_at: Date.now() })
      .where('id', '=', c.get('user').id)
      .execute();
    return c.json(envelope(0, MESSAGES.submitSuccessfully, null));
  });

  // SPEC.md §4 "shown once per user": the site says here that it offered the information modal; /user/info reads it
  // back.
  app.post('/infoAsked', requireUser(db), async (c) => {
    await db
      .updateTable('users')
      .set({ info_asked_at: Date.now() })
      .where('id', '=', c.get('user').id)
      .where('info_asked_at', 'is', null)
      .execute();
    return c.json(envelope(0, MESSAGES.successfully, null));
  });

  app.post('/exit/login', requireUser(db), async (c) => {
    const token = c.get('sessionToken');
    if (token) await revokeSession(db, token);
    return c.json(envelope(0, MESSAGES.successfully, null));
  });

  return app;
}

/**
 * Everything under /user (sign-in, sessions, user info, credits, OAuth); app.ts mounts it there, the API key route at
 * /apply.
 */
export function userRoutes(ctx: AccountsContext) {
  const app = new Hono();
  app.use('*', bodyCap(ctx.config.bodyLimitBytes));
  app.route('/', sessionRoutes(ctx));
  app.route('/', creditRoutes(ctx));
  app.route('/', oauthRoutes(ctx));
  return app;
}
