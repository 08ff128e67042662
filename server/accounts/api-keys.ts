// API keys: one per user, encrypted at rest (the dashboard shows it again), matched by hash, regenerable.
import type { Kysely } from 'kysely';
import { preparedQuery, type Schema, type User } from '../db';
import { API_KEYS } from '../../src/lib/spec';
import { decrypt, encrypt, randomToken, sha256Hex } from './crypto';

function newKey(): string {
  return API_KEYS.prefix + randomToken(32);
}

/** The user's key, created on the first call (SPEC.md §7 POST /apply/playground). */
export async function getOrCreateApiKey(db: Kysely<Schema>, encryptionKey: Buffer, userId: string): Promise<string> {
  const key = newKey();
  // Two first calls at once: the primary key on user_id keeps one; both then read the same row.
  await db
    .insertInto('api_keys')
    .values({ user_id: userId, key_ciphertext: encrypt(encryptionKey, key), key_hash: sha256Hex(key), created_at: Date.now() })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const row = await db.selectFrom('api_keys').select('key_ciphertext').where('user_id', '=', userId).executeTakeFirstOrThrow();
  return decrypt(encryptionKey, row.key_ciphertext);
}

/** Replaces the user's key; the old one stops matching at once because its hash is overwritten. */
export async function regenerateApiKey(db: Kysely<Schema>, encryptionKey: Buffer, userId: string): Promise<string> {
  const key = newKey();
  const values = { key_ciphertext: encrypt(encryptionKey, key), key_hash: sha256Hex(key), created_at: Date.now() };
  await db
    .insertInto('api_keys')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
  return key;
}

// Every public API call asks this, so it is compiled once (server/db/prepared.ts).
const keyOwner = preparedQuery((db, keyHash: string) =>
  db.selectFrom('api_keys').innerJoin('users', 'users.id', 'api_keys.user_id').selectAll('users').where('api_keys.key_hash', '=', keyHash),
);

export async function userByApiKey(db: Kysely<Schema>, key: string): Promise<User | undefined> {
  if (!key.startsWith(API_KEYS.prefix)) return undefined;
  return keyOwner.first(db, sha256Hex(key));
}
