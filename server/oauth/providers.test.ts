// Google and GitHub sign-in at unit level: the authorize URL, and the code exchange against local identity providers.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../config';
import { idpEnv, startFakeIdps, type FakeIdps } from '../test-support/fake-idp';
import {
  authorizeUrl,
  isConfigured,
  OAuthExchangeError,
  OAuthNoEmailError,
  redirectUri,
  verifiedIdentity,
} from './providers';

let idps: FakeIdps;
beforeAll(async () => (idps = await startFakeIdps()));
afterAll(() => idps.close());
beforeEach(() => {
  idps.google.identity = { email: 'Gee@Example.COM', verified: true, name: 'Gee' };
  idps.github.identity = { email: 'Octo@Example.COM', verified: true, name: 'Octo Cat' };
});

function configWith(env: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://api.test/',
    ...idpEnv(idps.google, idps.github),
    ...env,
  });
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Plays the browser at the provider: visits the authorize URL and reads the code it sends back. */
async function authorize(config: Config, provider: 'google' | 'github') {
  const state = `dreamapi.${randomBytes(18).toString('base64url')}`;
  const { verifier, challenge } = pkce();
  const res = await fetch(authorizeUrl(config, provider, state, challenge), { redirect: 'manual' });
  const back = new URL(res.headers.get('location')!);
  return { code: back.searchParams.get('code')!, state, codeVerifier: verifier };
}

describe('configuration', () => {
  it('counts a provider as configured only with both client id and secret', () => {
    expect(isConfigured(configWith(), 'google')).toBe(true);
    expect(isConfigured(configWith(), 'github')).toBe(true);
    const bare = loadConfig({ LOG_LEVEL: 'silent', GITHUB_CLIENT_ID: 'only-the-id' });
    expect(isConfigured(bare, 'github')).toBe(false);
    expect(isConfigured(bare, 'google')).toBe(false);
  });

  it('sends the provider back to the API host callback of that provider', () => {
    expect(redirectUri(configWith(), 'google')).toBe('http://api.test/user/google/login/callback');
    expect(redirectUri(configWith(), 'github')).toBe('http://api.test/user/github/login/callback');
  });
});

describe('authorizeUrl', () => {
  it.each([
    ['google', 'openid email profile'],
    ['github', 'read:user user:email'],
  ] as const)(
    'asks %s for a code with the scopes that yield an email, the state and an S256 challenge',
    (provider, scope) => {
      const config = configWith();
      const url = new URL(authorizeUrl(config, provider, 'dreamapi.state-value', 'challenge-value'));
      expect(url.origin + url.pathname).toBe(`${(provider === 'google' ? idps.google : idps.github).url}/authorize`);
      expect(Object.fromEntries(url.searchParams)).toEqual({
        client_id: `${provider}-client`,
        redirect_uri: `http://api.test/user/${provider}/login/callback`,
        response_type: 'code',
        scope,
        state: 'dreamapi.state-value',
        code_challenge: 'challenge-value',
        code_challenge_method: 'S256',
      });
    },
  );
});

describe('verifiedIdentity', () => {
  it('returns the verified Google email in lower case and the name from the signed ID token', async () => {
    const config = configWith();
    expect(await verifiedIdentity(config, 'google', await authorize(config, 'google'))).toEqual({
      email: 'gee@example.com',
      name: 'Gee',
    });
  });

  it('returns the primary verified GitHub email in lower case and the profile name, or the login without one', async () => {
    const config = configWith();
    expect(await verifiedIdentity(config, 'github', await authorize(config, 'github'))).toEqual({
      email: 'octo@example.com',
      name: 'Octo Cat',
    });
    idps.github.identity.name = '';
    expect(await verifiedIdentity(config, 'github', await authorize(config, 'github'))).toEqual({
      email: 'octo@example.com',
      name: 'octo',
    });
  });

  it.each(['google', 'github'] as const)('answers OAuthNoEmailError for an unverified %s email', async (provider) => {
    (provider === 'google' ? idps.google : idps.github).identity.verified = false;
    const config = configWith();
    await expect(verifiedIdentity(config, provider, await authorize(config, provider))).rejects.toBeInstanceOf(
      OAuthNoEmailError,
    );
  });

  it.each(['google', 'github'] as const)('answers OAuthExchangeError for a %s code used twice', async (provider) => {
    const config = configWith();
    const input = await authorize(config, provider);
    await verifiedIdentity(config, provider, input);
    await expect(verifiedIdentity(config, provider, input)).rejects.toBeInstanceOf(OAuthExchangeError);
  });

  it('answers OAuthExchangeError when the client secret is wrong', async () => {
    const config = configWith({ GITHUB_CLIENT_SECRET: 'not-the-secret' });
    await expect(verifiedIdentity(config, 'github', await authorize(config, 'github'))).rejects.toBeInstanceOf(
      OAuthExchangeError,
    );
  });

  it('refuses a Google ID token whose issuer is not the configured one', async () => {
    const config = configWith({ GOOGLE_ISSUER: 'https://accounts.example.org' });
    const error = await verifiedIdentity(config, 'google', await authorize(config, 'google')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthExchangeError);
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('answers OAuthExchangeError, not a raw network error, when the token endpoint cannot be reached', async () => {
    const config = configWith();
    const input = await authorize(config, 'google');
    const down = configWith({ GOOGLE_TOKEN_ENDPOINT: 'http://127.0.0.1:1/token' });
    await expect(verifiedIdentity(down, 'google', input)).rejects.toBeInstanceOf(OAuthExchangeError);
  });

  it('answers OAuthExchangeError with both statuses when the GitHub API does not answer the profile', async () => {
    // The Google-like provider has no /user endpoints: it answers 404 to both calls.
    const config = configWith({ GITHUB_API_URL: idps.google.url });
    await expect(verifiedIdentity(config, 'github', await authorize(config, 'github'))).rejects.toThrow(
      new OAuthExchangeError('GitHub API answered 404/404'),
    );
  });
});
