// Migration 7: sign-in attempts and links on login codes, and the log of wrong guesses the daily budgets count
// (docs/security.md).
import type { Kysely } from 'kysely';
import type { Engine } from './migration.ts';

export const name = '007_sign_in_attempts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // Hashes of the attempt id answered by POST /user/code and of the mailed one-time link; null on older codes,
  // which therefore can no longer be used (they expire within 10 minutes anyway).
  await db.schema.alterTable('login_codes').addColumn('attempt_hash', 'text').execute();
  await db.schema.alterTable('login_codes').addColumn('link_hash', 'text').execute();
  await db.schema
    .createIndex('login_codes_attempt_hash_idx')
    .unique()
    .on('login_codes')
    .column('attempt_hash')
    .execute();
  await db.schema.createIndex('login_codes_link_hash_idx').unique().on('login_codes').column('link_hash').execute();
  // Sends are counted per email and requesting IP.
  await db.schema
    .createIndex('login_codes_email_ip_created_at_idx')
    .on('login_codes')
    .columns(['email', 'ip', 'created_at'])
    .execute();

  const table = db.schema.createTable('login_guesses');
  // Same auto-increment id as 001: INTEGER PRIMARY KEY AUTOINCREMENT on SQLite, bigserial on PostgreSQL.
  const withId =
    engine === 'postgres'
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await withId
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_guesses_email_created_at_idx')
    .on('login_guesses')
    .columns(['email', 'created_at'])
    .execute();
  await db.schema
    .createIndex('login_guesses_ip_created_at_idx')
    .on('login_guesses')
    .columns(['ip', 'created_at'])
    .execute();
}
