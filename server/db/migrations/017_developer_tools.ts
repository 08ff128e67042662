// Migration 17: credit caps per API key, the key and request id each task came with, and every webhook delivery
// attempt.
import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Engine } from './migration.ts';

export const name = '017_developer_tools';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // Null: no cap (the balance is the only limit). Checked against the key's tasks of the UTC day or month at submit.
  await db.schema.alterTable('api_keys').addColumn('daily_credit_cap', 'integer').execute();
  await db.schema.alterTable('api_keys').addColumn('monthly_credit_cap', 'integer').execute();

  // The key a public API task was submitted with (null for the playground), what its caps count; and the submitting
  // request's X-Request-Id, which the usage export carries so a row can be matched to the caller's own logs.
  await db.schema.alterTable('tasks').addColumn('key_id', 'text').execute();
  await db.schema.alterTable('tasks').addColumn('request_id', 'text').execute();
  await db.schema.createIndex('tasks_key_created_idx').on('tasks').columns(['key_id', 'created_at']).execute();

  const serial = <TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) =>
    engine === 'postgres'
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  // One row per attempt to send a webhook_deliveries message, retries and redeliveries included; removed with its task.
  await db.schema
    .createTable('webhook_attempts')
    .$call(serial)
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    // 1, 2, 3… within its delivery.
    .addColumn('attempt', 'integer', (c) => c.notNull())
    // retry: sent by the dispatcher (first send and retries); redeliver: asked for by the owner.
    .addColumn('trigger', 'text', (c) => c.notNull())
    // The receiver's HTTP status; null when no answer came (refused address, timeout, connection error).
    .addColumn('status_code', 'integer')
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    // The first WEBHOOK_LOG.responseHeadBytes of the answer, as text.
    .addColumn('response_head', 'text')
    // When the dispatcher sends it again; null when no retry follows (delivered, out of attempts, or a redelivery).
    .addColumn('next_retry_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempts_user_idx').on('webhook_attempts').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('webhook_attempts_task_idx').on('webhook_attempts').column('task_id').execute();
  await db.schema.createIndex('webhook_attempts_delivery_idx').on('webhook_attempts').column('delivery_id').execute();
}
