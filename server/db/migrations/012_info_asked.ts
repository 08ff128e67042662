// Migration 12: when the information modal was offered to an account, so it is asked once per account, not per browser.
import { sql, type Kysely } from 'kysely';
import type { Engine } from './migration.ts';

export const name = '012_info_asked';

export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  // Epoch ms; null until the site first offers the form to this account (SPEC.md §4 "shown once per user").
  await db.schema.alterTable('users').addColumn('info_asked_at', 'bigint').execute();
  // Accounts that already named their company answered the form: they are not asked again.
  await sql`UPDATE users SET info_asked_at = updated_at WHERE company IS NOT NULL`.execute(db);
}
