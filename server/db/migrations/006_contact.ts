// Migration 6: messages sent through the contact form on /contact-us.
import type { Kysely } from 'kysely';
import type { Engine } from './migration.ts';

export const name = '006_contact';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const table = db.schema.createTable('contact_messages');
  // Same auto-increment id as 001: INTEGER PRIMARY KEY AUTOINCREMENT on SQLite, bigserial on PostgreSQL.
  const withId =
    engine === 'postgres'
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await withId
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_id', 'text')
    // Set once the support inbox accepted the mail; null when mail is not configured or failed.
    .addColumn('mailed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('contact_messages_email_created_idx')
    .on('contact_messages')
    .columns(['email', 'created_at'])
    .execute();
  await db.schema
    .createIndex('contact_messages_ip_created_idx')
    .on('contact_messages')
    .columns(['ip', 'created_at'])
    .execute();
}
