// Migration 4: generation tasks, stored media, upload policies, webhook secrets and deliveries.
import type { Kysely } from 'kysely';
import type { Engine } from './migration.ts';

export const name = '004_tasks';

export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  const epochMs = 'bigint';

  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('feature', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // Where it came from: 'playground' or 'api' (the public API answers in DreamAPI's shape).
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('output', 'text')
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('price_item', 'text', (c) => c.notNull())
    // Held at submit; charged is the settled amount once the task finished (0 when refunded).
    .addColumn('credits_held', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_charged', 'integer')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('idempotency_key', 'text')
    .addColumn('request_hash', 'text')
    .addColumn('callback_url', 'text')
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .addColumn('started_at', epochMs)
    .addColumn('finished_at', epochMs)
    .addColumn('updated_at', epochMs, (c) => c.notNull())
    .execute();
  // History newest first; workers claim the oldest queued; a key is unique per user (NULLs never collide).
  await db.schema.createIndex('tasks_user_created_idx').on('tasks').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('tasks_status_created_idx').on('tasks').columns(['status', 'created_at']).execute();
  await db.schema
    .createIndex('tasks_user_idempotency_idx')
    .on('tasks')
    .columns(['user_id', 'idempotency_key'])
    .unique()
    .execute();

  await db.schema
    .createTable('media')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('task_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'integer')
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .addColumn('expires_at', epochMs, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('media_expires_idx').on('media').column('expires_at').execute();
  await db.schema.createIndex('media_task_idx').on('media').column('task_id').execute();

  await db.schema
    .createTable('upload_policies')
    .addColumn('req_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('scene', 'text', (c) => c.notNull())
    .addColumn('media_id', 'text')
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .addColumn('expires_at', epochMs, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_secrets')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    // The Standard Webhooks message id (webhook-id), the same on every retry so receivers can deduplicate.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', epochMs, (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', epochMs, (c) => c.notNull())
    .addColumn('updated_at', epochMs, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
}
