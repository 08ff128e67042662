// Invitations: operator-created codes with a use limit and expiry; each user redeems a code once (SPEC.md §7, §9).
import type { Kysely } from 'kysely';
import type { Schema } from '../db';
import { applyCreditChange } from '../credits';
import { AppError } from '../http/errors';
import { ERROR_CODES, ACCOUNT_MESSAGES, INVITATION } from '../../src/lib/product-rules';
import { randomToken } from './crypto';

export interface NewInvitationInput {
  code?: string;
  credits?: number;
  maxUses?: number;
  expiresAt?: number | null;
}

export async function createInvitation(db: Kysely<Schema>, input: NewInvitationInput = {}) {
  const code = input.code ?? randomToken(6).replace(/[-_]/g, 'X').toUpperCase();
  const row = {
    code,
    credits: input.credits ?? INVITATION.credits,
    max_uses: input.maxUses ?? 1,
    expires_at: input.expiresAt ?? null,
    created_at: Date.now(),
  };
  await db.insertInto('invitations').values(row).execute();
  return row;
}

/**
 * Redeems in one transaction: the redemption row's primary key (code, user) refuses a second redemption by
 * the same user even under concurrent requests, the guarded UPDATE refuses one past max_uses, and the credits
 * go through the ledger. Any refusal rolls the whole thing back.
 */
export async function redeemInvitation(
  db: Kysely<Schema>,
  input: { userId: string; code: string; now?: number },
): Promise<{ credits: number; balance: number }> {
  const now = input.now ?? Date.now();
  const refuse = (status: 400 | 404 | 409, message: string) =>
    new AppError(
      status,
      status === 404 ? ERROR_CODES.notFound : status === 409 ? ERROR_CODES.conflict : ERROR_CODES.invalidInput,
      message,
    );
  try {
    return await db.transaction().execute(async (trx) => {
      const invitation = await trx
        .selectFrom('invitations')
        .selectAll()
        .where('code', '=', input.code)
        .executeTakeFirst();
      if (!invitation) throw refuse(404, ACCOUNT_MESSAGES.invitationUnknown);
      if (invitation.expires_at !== null && invitation.expires_at <= now)
        throw refuse(400, ACCOUNT_MESSAGES.invitationExpired);
      const inserted = await trx
        .insertInto('invitation_redemptions')
        .values({ code: input.code, user_id: input.userId, created_at: now })
        .onConflict((oc) => oc.columns(['code', 'user_id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0)
        throw refuse(409, ACCOUNT_MESSAGES.invitationAlreadyRedeemed);
      const counted = await trx
        .updateTable('invitations')
        .set((eb) => ({ uses: eb('uses', '+', 1) }))
        .where('code', '=', input.code)
        .where((eb) => eb('uses', '<', eb.ref('max_uses')))
        .executeTakeFirst();
      if (Number(counted.numUpdatedRows) === 0) throw refuse(409, ACCOUNT_MESSAGES.invitationUsedUp);
      const { balance } = await applyCreditChange(trx, {
        userId: input.userId,
        delta: invitation.credits,
        reason: 'invitation',
        reference: input.code,
        audit: { actor: `user:${input.userId}`, reason: `redeemed invitation ${input.code}` },
      });
      return { credits: invitation.credits, balance };
    });
  } catch (error) {
    // PostgreSQL: a concurrent redemption by the same user waits on the key, then fails as a duplicate.
    if (!(error instanceof AppError) && /unique|duplicate/i.test(String((error as Error).message))) {
      throw refuse(409, ACCOUNT_MESSAGES.invitationAlreadyRedeemed);
    }
    throw error;
  }
}
