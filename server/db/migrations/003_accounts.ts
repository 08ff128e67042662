// Migration 3: indexes for the account limits: per-IP hourly code cap and per-user session lookups by age.
import type { Kysely } from 'kysely';

export const name = '003_accounts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // POST /user/code counts an IP's codes in the last hour; without this it would scan every code.
  await db.schema
    .createIndex('login_codes_ip_created_at_idx')
    .on('login_codes')
    .columns(['ip', 'created_at'])
    .execute();
  // The resend and per-email caps read an email's recent codes newest first.
  await db.schema
    .createIndex('login_codes_email_created_at_idx')
    .on('login_codes')
    .columns(['email', 'created_at'])
    .execute();
}
