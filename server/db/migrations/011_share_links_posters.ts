// Migration 11: opt-in public links to one task's results, and poster frames stored beside video results.
import type { Kysely } from 'kysely';
import type { Engine } from './migration.ts';

export const name = '011_share_links_posters';

export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  const epochMs = 'bigint';

  // A link is signed (the token carries id, expiry and an HMAC), expires, and is revoked by setting revoked_at;
  // deleting the task removes its links with it.
  await db.schema
    .createTable('share_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .addColumn('expires_at', epochMs, (c) => c.notNull())
    .addColumn('revoked_at', epochMs)
    .execute();
  await db.schema.createIndex('share_links_task_idx').on('share_links').column('task_id').execute();

  // A poster frame is a media row of kind 'poster' naming the video it was taken from; it lives and goes with it.
  await db.schema.alterTable('media').addColumn('poster_of', 'text').execute();
  await db.schema.createIndex('media_poster_of_idx').on('media').column('poster_of').execute();
}
