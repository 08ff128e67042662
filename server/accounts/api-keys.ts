// API keys: the default key (SPEC.md §7 /apply/playground; encrypted at rest, shown again, regenerable) and named keys
// shown once; matched by hash.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { preparedQuery, type ApiKey, type Schema, type User } from '../db';
import { AppError } from '../http/errors';
import { ACCOUNT_MESSAGES, API_KEYS, ERROR_CODES, HISTORY_MESSAGES, NAMED_API_KEYS } from '../../src/lib/product-rules';
import type { ApiKeyView } from '../../src/lib/api/types';
import { decrypt, encrypt, randomToken, sha256Hex } from './crypto';

function newKey(): string {
  return API_KEYS.prefix + randomToken(32);
}

/** How a key is told apart in lists without showing it: its first and last characters. */
export function keyHint(key: string): string {
  return `${key.slice(0, API_KEYS.visibleChars)}…${key.slice(-4)}`;
}

/**
 * The conflict target of "the user's default key": the partial unique index of migration 011 (a literal, so PostgreSQL
 * can match it).
 */
const isDefault = sql<boolean>`is_default = 1`;

/** The user's default key, created on the first call (SPEC.md §7 POST /apply/playground). */
export async function getOrCreateApiKey(db: Kysely<Schema>, encryptionKey: Buffer, userId: string): Promise<string> {
  const key = newKey();
  // Two first calls at once: the unique index keeps one default key; both then read the same row.
  await db
    .insertInto('api_keys')
    .values({
      id: randomUUID(),
      user_id: userId,
      name: NAMED_API_KEYS.defaultName,
      key_ciphertext: encrypt(encryptionKey, key),
      key_hash: sha256Hex(key),
      key_hint: null,
      is_default: 1,
      created_at: Date.now(),
      last_used_at: null,
    })
    .onConflict((oc) => oc.column('user_id').where(isDefault).doNothing())
    .execute();
  const row = await db
    .selectFrom('api_keys')
    .select('key_ciphertext')
    .where('user_id', '=', userId)
    .where('is_default', '=', 1)
    .executeTakeFirstOrThrow();
  return decrypt(encryptionKey, row.key_ciphertext!);
}

/**
 * Replaces the default key's secret; the old one stops matching at once because its hash is overwritten. Named keys are
 * untouched.
 */
export async function regenerateApiKey(db: Kysely<Schema>, encryptionKey: Buffer, userId: string): Promise<string> {
  const key = newKey();
  const values = {
    key_ciphertext: encrypt(encryptionKey, key),
    key_hash: sha256Hex(key),
    created_at: Date.now(),
    last_used_at: null,
  };
  await db.transaction().execute(async (trx) => {
    const old = await trx
      .selectFrom('api_keys')
      .select('key_hash')
      .where('user_id', '=', userId)
      .where('is_default', '=', 1)
      .executeTakeFirst();
    if (old) await retireKey(trx, old.key_hash, userId, 'regenerated');
    await trx
      .insertInto('api_keys')
      .values({
        id: randomUUID(),
        user_id: userId,
        name: NAMED_API_KEYS.defaultName,
        key_hint: null,
        is_default: 1,
        ...values,
      })
      .onConflict((oc) => oc.column('user_id').where(isDefault).doUpdateSet(values))
      .execute();
  });
  return key;
}

type RetiredReason = 'revoked' | 'regenerated';

/** Keeps a key's hash after it stops matching, so a call with it is told why (retiredKeyMessage). */
async function retireKey(db: Kysely<Schema>, keyHash: string, userId: string, reason: RetiredReason): Promise<void> {
  const retired = { user_id: userId, reason, retired_at: Date.now() };
  await db
    .insertInto('retired_api_keys')
    .values({ key_hash: keyHash, ...retired })
    .onConflict((oc) => oc.column('key_hash').doUpdateSet(retired))
    .execute();
}

/**
 * What a call with no live key is told: that its key was revoked or regenerated (and when), or null when it never was
 * one.
 */
export async function retiredKeyMessage(db: Kysely<Schema>, key: string): Promise<string | null> {
  const row = await db
    .selectFrom('retired_api_keys')
    .select(['reason', 'retired_at'])
    .where('key_hash', '=', sha256Hex(key))
    .executeTakeFirst();
  if (!row) return null;
  const on = new Date(Number(row.retired_at)).toISOString().slice(0, 10);
  return row.reason === 'revoked' ? ACCOUNT_MESSAGES.revokedApiKey(on) : ACCOUNT_MESSAGES.regeneratedApiKey(on);
}

function view(row: ApiKey, encryptionKey: Buffer): ApiKeyView {
  const hint = row.key_hint ?? (row.key_ciphertext ? keyHint(decrypt(encryptionKey, row.key_ciphertext)) : '');
  return {
    id: row.id,
    name: row.name,
    hint,
    isDefault: row.is_default === 1,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

/** The user's keys, the default key first, then the newest. */
export async function listApiKeys(db: Kysely<Schema>, encryptionKey: Buffer, userId: string): Promise<ApiKeyView[]> {
  const rows = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => view(row, encryptionKey));
}

/**
 * Makes a named key; the answer carries the whole key, which is never shown again (only its hash and hint are kept).
 */
export async function createApiKey(
  db: Kysely<Schema>,
  encryptionKey: Buffer,
  userId: string,
  name: string,
): Promise<ApiKeyView & { key: string }> {
  const key = newKey();
  const row = await db.transaction().execute(async (trx) => {
    // Touching the user row serialises one user's creates on PostgreSQL, so the count below cannot be raced.
    await trx
      .updateTable('users')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', userId)
      .execute();
    const { count } = await trx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= NAMED_API_KEYS.maxPerUser)
      throw new AppError(409, ERROR_CODES.conflict, HISTORY_MESSAGES.keyLimit);
    return trx
      .insertInto('api_keys')
      .values({
        id: randomUUID(),
        user_id: userId,
        name,
        key_ciphertext: null,
        key_hash: sha256Hex(key),
        key_hint: keyHint(key),
        is_default: 0,
        created_at: Date.now(),
        last_used_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return { ...view(row, encryptionKey), key };
}

/**
 * Revokes a named key: it stops matching at once. The default key is regenerated instead, so /apply/playground always
 * has one.
 */
export async function revokeApiKey(db: Kysely<Schema>, userId: string, keyId: string): Promise<void> {
  const row = await db
    .selectFrom('api_keys')
    .select(['id', 'is_default', 'key_hash'])
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError(404, ERROR_CODES.notFound, HISTORY_MESSAGES.keyNotFound);
  if (row.is_default === 1) throw new AppError(409, ERROR_CODES.conflict, HISTORY_MESSAGES.keyDefaultRevoke);
  await db.transaction().execute(async (trx) => {
    await retireKey(trx, row.key_hash, userId, 'revoked');
    await trx.deleteFrom('api_keys').where('id', '=', keyId).where('user_id', '=', userId).execute();
  });
}

/**
 * Which key a user object answered by userByApiKey came through, for the request log; the user row itself stays as it
 * is.
 */
const keyIds = new WeakMap<User, string>();

export function apiKeyIdOf(user: User): string | undefined {
  return keyIds.get(user);
}

// Every public API call asks this, so it is compiled once (server/db/prepared.ts). Subqueries, not a join: SQLite
// runs this shape in a third of the join's time (bench/api-throughput.mjs).
const keyOwner = preparedQuery((db, keyHash: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .select((eb) => eb.selectFrom('api_keys').select('id').where('key_hash', '=', keyHash).as('api_key_id'))
    .where('id', '=', (eb) => eb.selectFrom('api_keys').select('user_id').where('key_hash', '=', keyHash)),
);

export async function userByApiKey(db: Kysely<Schema>, key: string): Promise<User | undefined> {
  if (!key.startsWith(API_KEYS.prefix)) return undefined;
  const row = await keyOwner.first(db, sha256Hex(key));
  if (!row || row.api_key_id === null) return undefined;
  const { api_key_id, ...user } = row;
  keyIds.set(user, api_key_id);
  return user;
}
