// Google (OIDC) and GitHub sign-in against local identity providers: state prefix, PKCE, callback redirect.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, API_CODES } from '../../src/lib/product-rules';
import { idpEnv, startFakeIdps, type FakeIdps } from '../test-support/fake-idp';
import { createAccountsTestApp, post, signIn, useAccountsTestApp } from '../test-support/accounts';

let idps: FakeIdps;
beforeAll(async () => (idps = await startFakeIdps()));
afterAll(() => idps.close());
const t = useAccountsTestApp(() => ({
  ...idpEnv(idps.google, idps.github),
  PUBLIC_URL: 'http://api.test',
  SITE_URL: 'http://site.test',
}));
beforeEach(() => {
  idps.google.identity = { email: 'g@example.com', verified: true, name: 'Gee' };
  idps.github.identity = { email: 'octo@example.com', verified: true, name: 'Octo' };
});

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Plays the browser: asks for the authorize URL, "visits" it, follows the API host's callback redirect. */
async function authorize(provider: 'google' | 'github') {
  const state = `dreamapi.${randomBytes(18).toString('base64url')}`;
  const { verifier, challenge } = pkce();
  const url = (await post(t.app, `/user/${provider}/login/url`, { state, codeChallenge: challenge })).body.data
    .url as string;
  const atIdp = await fetch(url, { redirect: 'manual' });
  const callback = new URL(atIdp.headers.get('location')!);
  const bounced = await t.app.request(callback.pathname + callback.search);
  const siteRoot = new URL(bounced.headers.get('location')!);
  return { state, verifier, url: new URL(url), callback, bounced, siteRoot };
}

describe.each(['google', 'github'] as const)('%s sign-in', (provider) => {
  it('builds the authorize URL with the configured client, the state and an S256 challenge', async () => {
    const { url, state } = await authorize(provider);
    expect(url.searchParams.get('client_id')).toBe(`${provider}-client`);
    expect(url.searchParams.get('redirect_uri')).toBe(`http://api.test/user/${provider}/login/callback`);
    expect(url.searchParams.get('state')).toBe(state);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  });

  it('sends the browser from the API-host callback to the site root with the query (SPEC.md §4)', async () => {
    const { bounced, siteRoot, state } = await authorize(provider);
    expect(bounced.status).toBe(302);
    expect(siteRoot.origin + siteRoot.pathname).toBe('http://site.test/');
    expect(siteRoot.searchParams.get('state')).toBe(state);
    expect(siteRoot.searchParams.get('code')).toBeTruthy();
  });

  it('exchanges the code with the PKCE verifier, creates the user and answers like email login', async () => {
    const { siteRoot, state, verifier } = await authorize(provider);
    const res = await post(t.app, `/user/${provider}/login/callback`, {
      code: siteRoot.searchParams.get('code')!,
      state,
      codeVerifier: verifier,
      referer: 'x',
      refererUrl: 'https://ref.example',
    });
    expect(res.body.code).toBe(0);
    const info = await post(t.app, '/user/info', {}, { token: res.body.data.token });
    expect(info.body.data.userEmail).toBe(provider === 'google' ? 'g@example.com' : 'octo@example.com');
    expect(info.body.data.userName).toBe(provider === 'google' ? 'Gee' : 'Octo');
  });

  it('refuses a code sent with another verifier (PKCE binds the code to the browser that started)', async () => {
    const { siteRoot, state } = await authorize(provider);
    const res = await post(t.app, `/user/${provider}/login/callback`, {
      code: siteRoot.searchParams.get('code')!,
      state,
      codeVerifier: pkce().verifier,
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(ACCOUNT_MESSAGES.oauthFailed);
  });

  it('refuses a state without the dreamapi prefix and random part, before calling the provider', async () => {
    const before = (provider === 'google' ? idps.google : idps.github).tokenRequests;
    for (const state of ['dreamapi', 'evil.abcdefghijklmnopqrstuvwxyz', 'dreamapi.short']) {
      const res = await post(t.app, `/user/${provider}/login/callback`, {
        code: 'c',
        state,
        codeVerifier: pkce().verifier,
      });
      expect(res.status).toBe(400);
      expect(res.body.msg).toMatch(/^state: /);
    }
    const url = await post(t.app, `/user/${provider}/login/url`, {
      state: 'dreamapi',
      codeChallenge: pkce().challenge,
    });
    expect(url.status).toBe(400);
    expect((provider === 'google' ? idps.google : idps.github).tokenRequests).toBe(before);
  });

  it('refuses an identity without a verified email', async () => {
    (provider === 'google' ? idps.google : idps.github).identity.verified = false;
    const { siteRoot, state, verifier } = await authorize(provider);
    const res = await post(t.app, `/user/${provider}/login/callback`, {
      code: siteRoot.searchParams.get('code')!,
      state,
      codeVerifier: verifier,
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(ACCOUNT_MESSAGES.oauthNoEmail);
  });
});

describe('linking and configuration', () => {
  it('links a provider sign-in to the email-code account with the same verified address', async () => {
    idps.google.identity.email = 'same@example.com';
    const { userId } = await signIn(t, 'same@example.com');
    const { siteRoot, state, verifier } = await authorize('google');
    const res = await post(t.app, '/user/google/login/callback', {
      code: siteRoot.searchParams.get('code')!,
      state,
      codeVerifier: verifier,
    });
    expect(res.body.data.userId).toBe(userId);
  });

  it('answers 404 with a clear message when a provider is not configured', async () => {
    const bare = await createAccountsTestApp();
    const res = await post(bare.app, '/user/github/login/url', {
      state: 'dreamapi.abcdefghijklmnopqrstu',
      codeChallenge: 'a'.repeat(43),
    });
    expect([res.status, res.body.msg]).toEqual([404, ACCOUNT_MESSAGES.oauthNotConfigured]);
    await bare.close();
    expect(API_CODES.notLoggedIn).toBe(40001);
  });
});
