// Google and GitHub sign-in in the browser: state and PKCE made here, the callback on / checked here (SPEC.md §2, §4).
import { accountsApi } from '../api';
import {
  OAUTH_PROVIDERS,
  OAUTH_SESSION_KEYS,
  OAUTH_STATE,
  OAUTH_STATE_PREFIX,
  STORAGE_KEYS,
  type OAuthProvider,
} from '../product-rules';
import { attribution, completeLogin } from '../stores/login';
import { local, session } from '../storage';

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomPart(bytes: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

async function s256(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

/** Saves loginType and redirectUri (§2), makes state and PKCE, and goes to the provider's authorize page. */
export async function startOAuth(provider: OAuthProvider): Promise<void> {
  const state = `${OAUTH_STATE_PREFIX}${OAUTH_STATE.separator}${randomPart(OAUTH_STATE.randomBytes)}`;
  const verifier = randomPart(32);
  local.set(STORAGE_KEYS.loginType, provider);
  local.set(STORAGE_KEYS.redirectUri, `${location.pathname}${location.search}`);
  session.set(OAUTH_SESSION_KEYS.state, state);
  session.set(OAUTH_SESSION_KEYS.verifier, verifier);
  const { url } = await accountsApi.oauthUrl(provider, state, await s256(verifier));
  location.assign(url);
}

export type CallbackOutcome =
  { kind: 'none' } | { kind: 'done'; redirect: string } | { kind: 'failed'; message: string };

/** A stored redirect path is followed only when it stays on this site. */
function safeRedirect(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/playground';
}

/**
 * SPEC.md §4 "OAuth callback": stores the parameters, checks the state against the one this tab made (a
 * forged or replayed callback stops here, before any request), calls the provider callback, then returns
 * the stored redirect path.
 */
export async function handleOAuthCallback(search: string): Promise<CallbackOutcome> {
  const params = new URLSearchParams(search);
  const provider = local.get(STORAGE_KEYS.loginType) as OAuthProvider | null;
  const code = params.get('code');
  const state = params.get('state');
  if (!code || !state || !state.startsWith(OAUTH_STATE_PREFIX)) {
    return params.has('error') && provider
      ? { kind: 'failed', message: params.get('error_description') ?? params.get('error')! }
      : { kind: 'none' };
  }
  const expected = session.get(OAUTH_SESSION_KEYS.state);
  const verifier = session.get(OAUTH_SESSION_KEYS.verifier);
  // One use only: whatever happens next, this state cannot be replayed.
  session.remove(OAUTH_SESSION_KEYS.state);
  session.remove(OAUTH_SESSION_KEYS.verifier);
  if (!provider || !OAUTH_PROVIDERS.includes(provider) || !expected || !verifier || expected !== state) {
    return { kind: 'failed', message: 'The sign-in could not be verified (state mismatch); please sign in again' };
  }
  try {
    const result = await accountsApi.oauthCallback(provider, {
      ...Object.fromEntries(params),
      codeVerifier: verifier,
      ...attribution(),
    });
    await completeLogin(result, { deferred: true });
    const redirect = safeRedirect(local.get(STORAGE_KEYS.redirectUri));
    local.remove(STORAGE_KEYS.redirectUri);
    return { kind: 'done', redirect };
  } catch (error) {
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}
