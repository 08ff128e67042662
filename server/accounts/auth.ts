// Who is calling: the `token` session header or an `Authorization: Bearer` API key (SPEC.md §7), 40001 otherwise;
// suspended accounts only read.
import type { Context, MiddlewareHandler } from 'hono';
import type { Kysely } from 'kysely';
import type { Schema, User } from '../db';
import { AppError } from '../http/errors';
import { API_CODES, MESSAGES, ACCOUNT_MESSAGES, ERROR_CODES, ERROR_MESSAGES } from '../../src/lib/product-rules';
import { retiredKeyMessage, userByApiKey } from './api-keys';
import { sessionUser } from './sessions';

export interface AuthVariables {
  user: User;
  /** The session token when the caller used one; null for API-key calls. */
  sessionToken: string | null;
  /**
   * Whether the session's user had signed in before (SPEC.md §3 isOld); null for API-key calls, which do not know it.
   */
  signedInBefore: boolean | null;
}

export type AuthEnv = { Variables: AuthVariables };

export function notLoggedIn(): AppError {
  return new AppError(401, API_CODES.notLoggedIn, MESSAGES.notLoggedIn);
}

function bearer(c: Context): string | undefined {
  const header = c.req.header('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/** Bearer-key lookups of a request, so the rate limiter and the auth check that both ask cost one query. */
const keyLookups = new WeakMap<Request, Promise<User | undefined>>();

function apiKeyUser(db: Kysely<Schema>, c: Context, key: string): Promise<User | undefined> {
  let lookup = keyLookups.get(c.req.raw);
  if (!lookup) {
    lookup = userByApiKey(db, key);
    keyLookups.set(c.req.raw, lookup);
  }
  return lookup;
}

/**
 * What a suspended account (SPEC.md §3 valid) gets from any call that charges, grants credits, pays or stores files.
 */
export function accountSuspended(): AppError {
  return new AppError(403, ERROR_CODES.suspended, ERROR_MESSAGES.suspended);
}

/** Throws accountSuspended() for a suspended user. */
export function assertNotSuspended(user: Pick<User, 'suspended'>): void {
  if (user.suspended) throw accountSuspended();
}

/**
 * Which requests of a route a suspended account may still make. `true` refuses every request; a function names the
 * requests that only read (info, history, results, cancel, delete) and refuses the rest, so a route added later is
 * refused until it is listed as reading.
 */
export interface AuthOptions {
  refuseSuspended?: true | { reads: (c: Context) => boolean };
}

function authorize(c: Context, auth: AuthVariables, o: AuthOptions): void {
  const rule = o.refuseSuspended;
  if (auth.user.suspended && rule && (rule === true || !rule.reads(c))) throw accountSuspended();
  c.set('user', auth.user);
  c.set('sessionToken', auth.sessionToken);
  c.set('signedInBefore', auth.signedInBefore);
}

/** Resolves the caller from the session token first, then the Bearer key; undefined when neither is valid. */
export async function authenticate(db: Kysely<Schema>, c: Context): Promise<AuthVariables | undefined> {
  const token = c.req.header('token')?.trim();
  if (token) {
    const session = await sessionUser(db, token);
    if (session) return { user: session.user, sessionToken: token, signedInBefore: session.signedInBefore };
  }
  const key = bearer(c);
  if (key) {
    const user = await apiKeyUser(db, c, key);
    if (user) return { user, sessionToken: null, signedInBefore: null };
  }
  return undefined;
}

/** For product API routes: a session or an API key (SPEC.md §7 sends both); 40001 when neither works. */
export function requireUser(db: Kysely<Schema>, o: AuthOptions = {}): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const auth = await authenticate(db, c);
    if (!auth) throw notLoggedIn();
    authorize(c, auth, o);
    await next();
  };
}

/** For the public API (later /api/* routes): only `Authorization: Bearer <key>` counts. */
export function requireApiKey(db: Kysely<Schema>, o: AuthOptions = {}): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const key = bearer(c);
    const user = key ? await apiKeyUser(db, c, key) : undefined;
    if (!user)
      throw new AppError(
        401,
        API_CODES.notLoggedIn,
        (key && (await retiredKeyMessage(db, key))) || ACCOUNT_MESSAGES.invalidApiKey,
      );
    authorize(c, { user, sessionToken: null, signedInBefore: null }, o);
    await next();
  };
}
