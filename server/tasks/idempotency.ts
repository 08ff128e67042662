// Idempotency-Key on submit: the same key and body answer the earlier task, another body 409 (docs/public-api.md).
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Schema, TaskRow } from '../db';
import { AppError } from '../http/errors';
import { IDEMPOTENCY, TASK_ERROR_CODES, TASK_MESSAGES, type Feature } from '../../src/lib/product-rules';

/** What a replay must match: the feature, the input and the callback. */
export const requestHash = (req: {
  feature: Feature;
  input: Record<string, unknown>;
  callbackUrl?: string | null;
}): string =>
  createHash('sha256')
    .update(JSON.stringify([req.feature, req.input, req.callbackUrl ?? null]))
    .digest('hex');

/** The task an earlier submit with this key made, while the key lives; 409 when the body differs. */
export async function replayed(
  db: Kysely<Schema>,
  req: { userId: string; idempotencyKey?: string | null },
  hash: string,
  now: number,
): Promise<TaskRow | undefined> {
  if (!req.idempotencyKey) return undefined;
  const existing = await db
    .selectFrom('tasks')
    .selectAll()
    .where('user_id', '=', req.userId)
    .where('idempotency_key', '=', req.idempotencyKey)
    .executeTakeFirst();
  if (!existing) return undefined;
  if (existing.created_at < now - IDEMPOTENCY.ttlMs) {
    // Past its lifetime the key is free again; the old task keeps its record without it.
    await db.updateTable('tasks').set({ idempotency_key: null }).where('id', '=', existing.id).execute();
    return undefined;
  }
  if (existing.request_hash !== hash)
    throw new AppError(409, TASK_ERROR_CODES.conflict, TASK_MESSAGES.idempotencyConflict);
  return existing;
}
