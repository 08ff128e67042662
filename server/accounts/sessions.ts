// Sessions: random tokens given to the browser, stored only as hashes, with an expiry and revocation.
import type { Kysely } from 'kysely';
import { preparedQuery, type Schema, type User } from '../db';
import { SESSIONS } from '../../src/lib/spec';
import { randomToken, sha256Hex } from './crypto';

export async function createSession(db: Kysely<Schema>, userId: string, now = Date.now()): Promise<string> {
  const token = randomToken(32);
  await db
    .insertInto('sessions')
    .values({ token_hash: sha256Hex(token), user_id: userId, created_at: now, expires_at: now + SESSIONS.ttlMs })
    .execute();
  return token;
}

// Every request with a session token asks these two, so they are compiled once (server/db/prepared.ts).
// The user row by the id a subquery finds, not a join: SQLite runs this shape in a third of a join's time.
const liveSessionUser = preparedQuery((db, tokenHash: string, now: number) =>
  db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', (eb) => eb.selectFrom('sessions').select('user_id').where('token_hash', '=', tokenHash).where('expires_at', '>', now).where('revoked_at', 'is', null)),
);
const twoSessionsOf = preparedQuery((db, userId: string) => db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).limit(2));

/** The user a live session token belongs to, or undefined for an unknown, expired or revoked token. */
export async function sessionUser(db: Kysely<Schema>, token: string, now = Date.now()): Promise<User | undefined> {
  return liveSessionUser.first(db, sha256Hex(token), now);
}

export async function revokeSession(db: Kysely<Schema>, token: string, now = Date.now()): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('token_hash', '=', sha256Hex(token)).execute();
}

/** Whether the user has signed in before (more than the one session asking). */
export async function hasEarlierSession(db: Kysely<Schema>, userId: string): Promise<boolean> {
  return (await twoSessionsOf.all(db, userId)).length > 1;
}
