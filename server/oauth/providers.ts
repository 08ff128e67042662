// Google (OIDC) and GitHub sign-in: the authorize URL with PKCE, and the code exchange that yields a verified email.
import * as oauth from 'oauth4webapi';
import type { Config, OAuthProviderConfig } from '../config';
import type { OAuthProvider } from '../../src/lib/product-rules';

export interface VerifiedIdentity {
  email: string;
  name: string;
}

/** A sign-in the provider or its answer refused; the message is for the log, never the browser. */
export class OAuthExchangeError extends Error {
  override name = 'OAuthExchangeError';
}

export class OAuthNoEmailError extends Error {
  override name = 'OAuthNoEmailError';
}

const SCOPES: Record<OAuthProvider, string> = {
  google: 'openid email profile',
  github: 'read:user user:email',
};

export function providerConfig(config: Config, provider: OAuthProvider): OAuthProviderConfig {
  return provider === 'google' ? config.google : config.github;
}

export function isConfigured(config: Config, provider: OAuthProvider): boolean {
  const p = providerConfig(config, provider);
  return Boolean(p.clientId && p.clientSecret);
}

/** The API-host path the provider redirects to (SPEC.md §2 "a callback path on the product's API host"). */
export function redirectUri(config: Config, provider: OAuthProvider): string {
  return `${config.publicUrl}/user/${provider}/login/callback`;
}

export function authorizeUrl(config: Config, provider: OAuthProvider, state: string, codeChallenge: string): string {
  const p = providerConfig(config, provider);
  const url = new URL(p.authorizationEndpoint);
  url.searchParams.set('client_id', p.clientId ?? '');
  url.searchParams.set('redirect_uri', redirectUri(config, provider));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', SCOPES[provider]);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

function authorizationServer(config: Config, provider: OAuthProvider): oauth.AuthorizationServer {
  const p = providerConfig(config, provider);
  return {
    issuer: provider === 'google' ? config.google.issuer : new URL(p.authorizationEndpoint).origin,
    authorization_endpoint: p.authorizationEndpoint,
    token_endpoint: p.tokenEndpoint,
  };
}

/**
 * Plain http endpoints are only accepted when configured so (local identity providers in tests). The option
 * is marked deprecated in oauth4webapi only "to make it stand out"; it is read by name so the type checker's
 * deprecation warning does not fail the build for this one deliberate, configuration-gated use.
 */
const ALLOW_INSECURE = (oauth as unknown as Record<string, symbol>)['allowInsecureRequests']!;
function insecure(url: string): oauth.TokenEndpointRequestOptions {
  return { [ALLOW_INSECURE]: url.startsWith('http:') } as oauth.TokenEndpointRequestOptions;
}

async function exchangeCode(
  config: Config,
  provider: OAuthProvider,
  code: string,
  state: string,
  codeVerifier: string,
) {
  const p = providerConfig(config, provider);
  const as = authorizationServer(config, provider);
  const client: oauth.Client = { client_id: p.clientId ?? '' };
  const params = oauth.validateAuthResponse(as, client, new URLSearchParams({ code, state }), state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.ClientSecretPost(p.clientSecret ?? ''),
    params,
    redirectUri(config, provider),
    codeVerifier,
    insecure(p.tokenEndpoint),
  );
  return {
    as,
    client,
    result: await oauth.processAuthorizationCodeResponse(as, client, response, {
      requireIdToken: provider === 'google',
    }),
  };
}

async function googleIdentity(
  config: Config,
  code: string,
  state: string,
  verifier: string,
): Promise<VerifiedIdentity> {
  const { result } = await exchangeCode(config, 'google', code, state, verifier);
  // The ID token came straight from the token endpoint, so its claims are trusted after oauth4webapi's
  // issuer, audience and expiry checks (OIDC Core 3.1.3.7).
  const claims = oauth.getValidatedIdTokenClaims(result);
  if (!claims || typeof claims.email !== 'string' || claims.email_verified !== true) throw new OAuthNoEmailError();
  return { email: claims.email.toLowerCase(), name: typeof claims.name === 'string' ? claims.name : '' };
}

async function githubIdentity(
  config: Config,
  code: string,
  state: string,
  verifier: string,
): Promise<VerifiedIdentity> {
  const { result } = await exchangeCode(config, 'github', code, state, verifier);
  const headers = {
    authorization: `Bearer ${result.access_token}`,
    accept: 'application/vnd.github+json',
    'user-agent': 'DreamAPI',
  };
  const [userRes, emailsRes] = await Promise.all([
    fetch(`${config.github.apiUrl}/user`, { headers }),
    fetch(`${config.github.apiUrl}/user/emails`, { headers }),
  ]);
  if (!userRes.ok || !emailsRes.ok)
    throw new OAuthExchangeError(`GitHub API answered ${userRes.status}/${emailsRes.status}`);
  const profile = (await userRes.json()) as { login?: string; name?: string | null };
  const emails = (await emailsRes.json()) as Array<{ email: string; primary: boolean; verified: boolean }>;
  const verified = Array.isArray(emails) ? emails.filter((e) => e.verified) : [];
  const chosen = verified.find((e) => e.primary) ?? verified[0];
  if (!chosen) throw new OAuthNoEmailError();
  return { email: chosen.email.toLowerCase(), name: profile.name || profile.login || '' };
}

/** Exchanges the code (with the PKCE verifier) and returns the provider-verified email. */
export async function verifiedIdentity(
  config: Config,
  provider: OAuthProvider,
  input: { code: string; state: string; codeVerifier: string },
): Promise<VerifiedIdentity> {
  try {
    return provider === 'google'
      ? await googleIdentity(config, input.code, input.state, input.codeVerifier)
      : await githubIdentity(config, input.code, input.state, input.codeVerifier);
  } catch (error) {
    if (error instanceof OAuthNoEmailError) throw error;
    throw new OAuthExchangeError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}
