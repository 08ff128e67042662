// Migration 1: accounts, sessions, login codes, API keys, the credit ledger and invitations (SPEC.md §3, §7).
import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Engine } from './migration.ts';

export const name = '001_initial';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // Timestamps are epoch milliseconds, which overflow a 32-bit integer; 'bigint' is a 64-bit INTEGER in SQLite too.
  const epochMs = 'bigint';

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Nullable because GitHub/Google may share no email (SPEC.md §4 bind-email); NULLs never collide on UNIQUE.
    .addColumn('email', 'text', (c) => c.unique())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('company', 'text')
    .addColumn('channel', 'text')
    .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('suspended', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('country_code', 'text')
    .addColumn('referer', 'text')
    .addColumn('referer_url', 'text')
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .addColumn('updated_at', epochMs, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .addColumn('expires_at', epochMs, (c) => c.notNull())
    .addColumn('revoked_at', epochMs)
    .execute();
  // Logging a user out everywhere, or suspending them, looks sessions up by user.
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('login_codes')
    .$call(serialId(engine))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .addColumn('expires_at', epochMs, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consumed_at', epochMs)
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('login_codes_email_idx').on('login_codes').column('email').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('key_ciphertext', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('credit_ledger')
    .$call(serialId(engine))
    // No cascade: the ledger is the record of every credit movement, so a user with history cannot be
    // deleted by accident.
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('balance_after', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .execute();
  // A user's history is read newest first by id, so (user_id, id) serves both the filter and the order.
  await db.schema.createIndex('credit_ledger_user_id_id_idx').on('credit_ledger').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('invitations')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('max_uses', 'integer', (c) => c.notNull())
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', epochMs)
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('invitation_redemptions')
    .addColumn('code', 'text', (c) => c.notNull().references('invitations.code'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', epochMs, (c) => c.notNull())
    // The composite key is what stops one user redeeming the same code twice, even under concurrent requests.
    .addPrimaryKeyConstraint('invitation_redemptions_pk', ['code', 'user_id'])
    .execute();
}

/**
 * An auto-incrementing integer primary key named id. SQLite needs INTEGER PRIMARY KEY AUTOINCREMENT (which
 * also never reuses the id of a deleted last row); PostgreSQL spells it bigserial, 64-bit like SQLite's rowid.
 */
function serialId(engine: Engine) {
  return <TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) =>
    engine === 'postgres'
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
