// Migration 18: the hashes of revoked and regenerated API keys, so a call with one is told what became of its key.
import type { Kysely } from 'kysely';
import type { Engine } from './migration.ts';

export const name = '018_retired_api_keys';

export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  // Only the hash is kept, as for live keys; a key found here never matches a user again.
  await db.schema
    .createTable('retired_api_keys')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // revoked | regenerated
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('retired_at', 'bigint', (c) => c.notNull())
    .execute();
}
