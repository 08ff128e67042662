// Sessions: random tokens given to the browser, stored only as hashes, with an expiry and revocation.
import type { Kysely } from 'kysely';
import { preparedQuery, type Schema, type User } from '../db';
import { SESSIONS } from '../../src/lib/product-rules';
import { randomToken, sha256Hex } from './crypto';

export async function createSession(db: Kysely<Schema>, userId: string, now = Date.now()): Promise<string> {
  const token = randomToken(32);
  await db
    .insertInto('sessions')
    .values({ token_hash: sha256Hex(token), user_id: userId, created_at: now, expires_at: now + SESSIONS.ttlMs })
    .execute();
  return token;
}

// Every request with a session token asks this, so it is compiled once (server/db/prepared.ts).
// The user row by the id a subquery finds, not a join: SQLite runs this shape in a third of a join's time.
// Whether the user holds another session (SPEC.md §3 isOld) rides along: in the same statement it costs a tenth of a
// second statement, which /user/info would otherwise run on every call.
const liveSessionUser = preparedQuery((db, tokenHash: string, now: number) =>
  db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('sessions as other')
            .select('other.user_id')
            .whereRef('other.user_id', '=', 'users.id')
            .where('other.token_hash', '!=', tokenHash),
        )
        .as('signed_in_before'),
    )
    .where('id', '=', (eb) =>
      eb
        .selectFrom('sessions')
        .select('user_id')
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', now)
        .where('revoked_at', 'is', null),
    ),
);
const twoSessionsOf = preparedQuery((db, userId: string) =>
  db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).limit(2),
);

/** A live session's user, and whether that user has signed in before (holds a session besides this one). */
export interface SessionCaller {
  user: User;
  signedInBefore: boolean;
}

/** The user a live session token belongs to, or undefined for an unknown, expired or revoked token. */
export async function sessionUser(
  db: Kysely<Schema>,
  token: string,
  now = Date.now(),
): Promise<SessionCaller | undefined> {
  const row = await liveSessionUser.first(db, sha256Hex(token), now);
  if (!row) return undefined;
  // SQLite answers exists() with 0 or 1, PostgreSQL with a boolean.
  const { signed_in_before: signedInBefore, ...user } = row;
  return { user, signedInBefore: Boolean(signedInBefore) };
}

export async function revokeSession(db: Kysely<Schema>, token: string, now = Date.now()): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('token_hash', '=', sha256Hex(token)).execute();
}

/** Whether the user has signed in before (two sessions or more), for callers that hold no session: an API key's. */
export async function hasEarlierSession(db: Kysely<Schema>, userId: string): Promise<boolean> {
  return (await twoSessionsOf.all(db, userId)).length > 1;
}
