// Migration 9: the audit trail of operator actions and non-task credit changes, and the trace context a task runs
// under.
import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Engine } from './migration.ts';

export const name = '009_operations';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  // Ids only grow (AUTOINCREMENT on SQLite, bigserial on PostgreSQL): the trail reads in the order things happened.
  const serial = <TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) =>
    engine === 'postgres'
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await db.schema
    .createTable('audit_log')
    .$call(serial)
    .addColumn('at', 'bigint', (c) => c.notNull())
    // Who: an operator's name (admin CLI), user:<id> for a user's own action, or system.
    .addColumn('actor', 'text', (c) => c.notNull())
    // What: AUDIT.actions in src/lib/product-rules/operability.ts.
    .addColumn('action', 'text', (c) => c.notNull())
    // On what: a user id, invitation code or key id; no foreign key, so the trail outlives what it names.
    .addColumn('subject', 'text', (c) => c.notNull())
    // Why, in the actor's words (or the ledger reason and reference of a credit change).
    .addColumn('reason', 'text', (c) => c.notNull())
    // Anything else worth keeping (credits moved, balance after), as JSON text.
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('audit_log_subject_idx').on('audit_log').columns(['subject', 'at']).execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
  // W3C traceparent of the request that submitted the task (only written while tracing is on).
  await db.schema.alterTable('tasks').addColumn('trace_context', 'text').execute();
}
