// Migration 10: several named API keys per user (one of them the default key) with last-used times, and the log of
// public API calls.
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Engine } from './migration.ts';

export const name = '010_api_keys_requests';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const epochMs = 'bigint';

  // api_keys was keyed by user (one key each); a key now has its own id. Neither engine can change a primary key
  // in place, so the table is rebuilt and each user's key is carried over as their default key.
  await db.schema
    .createTable('api_keys_next')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    // Only the default key is kept readable (the dashboard and /apply/playground show it again); a named key is
    // shown once when made, then known by its hint.
    .addColumn('key_ciphertext', 'text')
    .addColumn('key_hint', 'text')
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .addColumn('last_used_at', epochMs)
    .execute();
  await sql`insert into api_keys_next (id, user_id, name, key_hash, key_ciphertext, key_hint, is_default, created_at)
    select 'key_' || user_id, user_id, 'Default key', key_hash, key_ciphertext, null, 1, created_at from api_keys`.execute(
    db,
  );
  await db.schema.dropTable('api_keys').execute();
  await db.schema.alterTable('api_keys_next').renameTo('api_keys').execute();
  await db.schema.createIndex('api_keys_user_idx').on('api_keys').column('user_id').execute();
  // At most one default key per user; /apply/playground's first call inserts it "if none" against this index.
  await db.schema
    .createIndex('api_keys_one_default_idx')
    .on('api_keys')
    .column('user_id')
    .unique()
    .where(sql.ref('is_default'), '=', 1)
    .execute();

  const serial = <TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) =>
    engine === 'postgres'
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  // One row per public API call that passed the key check: what the dashboard's request log pages through.
  await db.schema
    .createTable('api_requests')
    .$call(serial)
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The key that made the call; revoking a key deletes it, its calls stay.
    .addColumn('key_id', 'text')
    // The path under /api, e.g. "async/do_tts_common" or "getAsyncResult".
    .addColumn('tool', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    // The envelope code: 0 on success, else the error's code (docs/public-api.md "Answers").
    .addColumn('code', 'integer', (c) => c.notNull())
    // Credits the call held (a submit's estimate); 0 for reads.
    .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('task_id', 'text')
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .execute();
  // Newest first per user by id; the retention pass removes by age.
  await db.schema.createIndex('api_requests_user_id_idx').on('api_requests').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('api_requests_created_idx').on('api_requests').column('created_at').execute();
}
