// Removes upload policies long past their time, with any file sent straight to the bucket under them and never
// finished.
import type { Kysely } from 'kysely';
import type { Schema } from '../db';
import { DIRECT_UPLOADS } from '../../src/lib/product-rules';
import type { IncomingUploads } from './store';

/**
 * One pass, page by page. A finished upload's incoming copy was removed when it was adopted, but the policy's form
 * may have been used again before it expired, so every swept policy's incoming name is cleared. Returns how many went.
 */
export async function sweepUploadPolicies(
  db: Kysely<Schema>,
  incoming: IncomingUploads | null,
  now = Date.now(),
): Promise<number> {
  const before = now - DIRECT_UPLOADS.sweepAfterMs;
  let removed = 0;
  for (;;) {
    const page = await db
      .selectFrom('upload_policies')
      .select('req_id')
      .where('expires_at', '<', before)
      .limit(DIRECT_UPLOADS.sweepPage)
      .execute();
    if (page.length === 0) return removed;
    const ids = page.map((row) => row.req_id);
    // The files go first: a policy row is the only record that an incoming file may exist.
    if (incoming) for (const id of ids) await incoming.discard(id);
    await db.deleteFrom('upload_policies').where('req_id', 'in', ids).execute();
    removed += ids.length;
    if (page.length < DIRECT_UPLOADS.sweepPage) return removed;
  }
}
