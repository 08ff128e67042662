// A local Google-like (OIDC) or GitHub-like identity provider for tests: authorize, token with PKCE, userinfo APIs.
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeIdpOptions {
  kind: 'oidc' | 'github';
  clientId: string;
  clientSecret: string;
  port?: number;
}

export interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  method: string;
  email: string;
  verified: boolean;
}

export interface FakeIdp {
  url: string;
  /** The identity the next authorization hands out. */
  identity: { email: string; verified: boolean; name: string };
  /** Token requests seen, for assertions that a forged callback never reached the provider. */
  tokenRequests: number;
  close(): Promise<void>;
}

function b64url(data: Buffer | string) {
  return Buffer.from(data).toString('base64url');
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startFakeIdp(options: FakeIdpOptions): Promise<FakeIdp> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, Grant>();
  const state: FakeIdp = {
    url: '',
    identity: { email: 'person@example.com', verified: true, name: 'Test Person' },
    tokenRequests: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  function idToken(grant: Grant, sub: string) {
    const now = Math.floor(Date.now() / 1000);
    const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'test' }));
    const payload = b64url(
      JSON.stringify({
        iss: state.url,
        aud: grant.clientId,
        sub,
        iat: now,
        exp: now + 600,
        email: grant.email,
        email_verified: grant.verified,
        name: state.identity.name,
      }),
    );
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), privateKey);
    return `${header}.${payload}.${b64url(signature)}`;
  }

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', state.url);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    // Authorize: consents at once (a person would click "Allow") and returns to redirect_uri.
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const p = url.searchParams;
      if (p.get('client_id') !== options.clientId || !p.get('redirect_uri') || !p.get('code_challenge')) {
        return json(400, { error: 'invalid_request' });
      }
      const code = b64url(randomBytes(16));
      grants.set(code, {
        clientId: options.clientId,
        redirectUri: p.get('redirect_uri')!,
        challenge: p.get('code_challenge')!,
        method: p.get('code_challenge_method') ?? 'plain',
        email: state.identity.email,
        verified: state.identity.verified,
      });
      const back = new URL(p.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', p.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      state.tokenRequests += 1;
      const p = await formBody(req);
      const grant = grants.get(p.get('code') ?? '');
      grants.delete(p.get('code') ?? '');
      const verifier = p.get('code_verifier') ?? '';
      const challenge = b64url(createHash('sha256').update(verifier).digest());
      const ok =
        grant &&
        p.get('client_id') === options.clientId &&
        p.get('client_secret') === options.clientSecret &&
        p.get('redirect_uri') === grant.redirectUri &&
        grant.method === 'S256' &&
        challenge === grant.challenge;
      if (!ok)
        return json(400, { error: 'invalid_grant', error_description: 'code, client or PKCE verifier does not match' });
      const accessToken = b64url(randomBytes(16));
      tokens.set(accessToken, grant);
      const body: Record<string, unknown> = {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 600,
        scope: 'email',
      };
      if (options.kind === 'oidc')
        body.id_token = idToken(grant, createHash('sha256').update(grant.email).digest('hex').slice(0, 16));
      return json(200, body);
    }
    const grant = tokens.get((req.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
    if (
      options.kind === 'github' &&
      req.method === 'GET' &&
      (url.pathname === '/user' || url.pathname === '/user/emails')
    ) {
      if (!grant) return json(401, { message: 'Bad credentials' });
      if (url.pathname === '/user') return json(200, { login: 'octo', name: state.identity.name });
      return json(200, [{ email: grant.email, primary: true, verified: grant.verified }]);
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** Environment that points the server at a fake Google (OIDC) and a fake GitHub. */
export function idpEnv(google: FakeIdp, github: FakeIdp): Record<string, string> {
  return {
    GOOGLE_CLIENT_ID: 'google-client',
    GOOGLE_CLIENT_SECRET: 'google-secret',
    GOOGLE_ISSUER: google.url,
    GOOGLE_AUTHORIZATION_ENDPOINT: `${google.url}/authorize`,
    GOOGLE_TOKEN_ENDPOINT: `${google.url}/token`,
    GITHUB_CLIENT_ID: 'github-client',
    GITHUB_CLIENT_SECRET: 'github-secret',
    GITHUB_AUTHORIZATION_ENDPOINT: `${github.url}/authorize`,
    GITHUB_TOKEN_ENDPOINT: `${github.url}/token`,
    GITHUB_API_URL: github.url,
  };
}

/** The pair every sign-in test uses: a Google-like and a GitHub-like provider with the client ids idpEnv names. */
export interface FakeIdps {
  google: FakeIdp;
  github: FakeIdp;
  close(): Promise<void>;
}

export async function startFakeIdps(ports: { google?: number; github?: number } = {}): Promise<FakeIdps> {
  const google = await startFakeIdp({
    kind: 'oidc',
    clientId: 'google-client',
    clientSecret: 'google-secret',
    port: ports.google,
  });
  const github = await startFakeIdp({
    kind: 'github',
    clientId: 'github-client',
    clientSecret: 'github-secret',
    port: ports.github,
  });
  return { google, github, close: async () => void (await Promise.all([google.close(), github.close()])) };
}
