// Google and GitHub sign-in (SPEC.md §2, §4, §7): authorize URL, the API-host callback that returns the browser to /,
// and the code exchange.
import { Hono } from 'hono';
import { AppError, envelope } from '../http/errors';
import { validBody } from '../http/input';
import { createSession } from '../accounts/sessions';
import { findOrCreateUserByEmail } from '../accounts/users';
import { authorizeUrl, isConfigured, OAuthNoEmailError, verifiedIdentity } from '../oauth/providers';
import { ERROR_CODES, ACCOUNT_MESSAGES, MESSAGES, type OAuthProvider } from '../../src/lib/product-rules';
import { oauthCallbackBody, oauthUrlBody } from './account-schemas';
import { countryCode, type AccountsContext } from './accounts-context';

/** Under /user (app.ts mounts the account routes there). */
const PROVIDER_PATH = '/:provider{google|github}/login';

export function oauthRoutes(ctx: AccountsContext) {
  const { db, config, log } = ctx;
  const app = new Hono();

  const provider = (value: string) => {
    const p = value as OAuthProvider;
    if (!isConfigured(config, p)) throw new AppError(404, ERROR_CODES.notFound, ACCOUNT_MESSAGES.oauthNotConfigured);
    return p;
  };

  // The browser makes the state and PKCE pair and keeps them; the server only knows the client registration.
  app.post(`${PROVIDER_PATH}/url`, async (c) => {
    const p = provider(c.req.param('provider'));
    const body = await validBody(c, oauthUrlBody);
    return c.json(envelope(0, MESSAGES.successfully, { url: authorizeUrl(config, p, body.state, body.codeChallenge) }));
  });

  // SPEC.md §4: the callback "appears as query parameters on the root path".
  app.get(`${PROVIDER_PATH}/callback`, (c) => {
    const query = new URL(c.req.url).search;
    return c.redirect(`${config.siteUrl}/${query}`, 302);
  });

  app.post(`${PROVIDER_PATH}/callback`, async (c) => {
    const p = provider(c.req.param('provider'));
    const body = await validBody(c, oauthCallbackBody);
    let identity;
    try {
      identity = await verifiedIdentity(config, p, body);
    } catch (error) {
      if (error instanceof OAuthNoEmailError)
        throw new AppError(400, ERROR_CODES.invalidInput, ACCOUNT_MESSAGES.oauthNoEmail);
      log.warn('oauth exchange refused', {
        provider: p,
        error: error instanceof Error ? error.message : String(error),
      });
      throw new AppError(400, ERROR_CODES.invalidInput, ACCOUNT_MESSAGES.oauthFailed);
    }
    // The provider verified the address, so it links to an email-code account of the same address.
    const { user } = await findOrCreateUserByEmail(
      db,
      identity.email,
      {
        name: identity.name || undefined,
        referer: body.referer,
        refererUrl: body.refererUrl,
        countryCode: countryCode(c, config),
      },
      { signupCredits: config.signupCredits },
    );
    const token = await createSession(db, user.id);
    return c.json(envelope(0, MESSAGES.successfully, { userId: user.id, token }));
  });

  return app;
}
