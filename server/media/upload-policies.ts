// Upload policies (get_policy … policy_upload_finish): recorded when issued to a user, found again only by that user.
import type { Kysely } from 'kysely';
import type { Schema, UploadPolicyRow } from '../db';
import { AppError } from '../http/errors';
import { ERROR_CODES, TASK_MESSAGES } from '../../src/lib/product-rules';

export async function recordUploadPolicy(
  db: Kysely<Schema>,
  policy: { reqId: string; userId: string; scene: string; now: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('upload_policies')
    .values({
      req_id: policy.reqId,
      user_id: policy.userId,
      scene: policy.scene,
      created_at: policy.now,
      expires_at: policy.expiresAt,
    })
    .execute();
}

/** The policy `reqId` issued to `userId`; 404 for another user's, as for one that never was. */
export async function userUploadPolicy(db: Kysely<Schema>, userId: string, reqId: string): Promise<UploadPolicyRow> {
  const policy = await db
    .selectFrom('upload_policies')
    .selectAll()
    .where('req_id', '=', reqId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!policy) throw new AppError(404, ERROR_CODES.notFound, TASK_MESSAGES.uploadPolicyUnknown);
  return policy;
}
