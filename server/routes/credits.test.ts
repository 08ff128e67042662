// Invitations and the billing history: one redemption per user even under 50 parallel requests.
import { describe, expect, it, vi } from 'vitest';
import { createInvitation } from '../accounts';
import { applyCreditChange } from '../credits';
import { ACCOUNT_MESSAGES, INVITATION, LOGIN_CODES, MESSAGES } from '../../src/lib/product-rules';
import { post, postJson, signIn, useAccountsTestApp } from '../test-support/accounts';

const t = useAccountsTestApp();

describe('POST /user/invitation (JSON, SPEC.md §7)', () => {
  it('credits 500 once when one user sends 50 redemptions in parallel', async () => {
    const { token, userId } = await signIn(t);
    await createInvitation(t.database.db, { code: 'WELCOME', maxUses: 100 });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => postJson(t.app, '/user/invitation', { code: 'WELCOME' }, { token })),
    );
    expect(results.filter((r) => r.body.code === 0)).toHaveLength(1);
    expect(results.find((r) => r.body.code === 0)!.body).toEqual({
      code: 0,
      msg: MESSAGES.redeemSuccessfully,
      data: { credits: INVITATION.credits, balance: 500 },
    });
    expect(
      results.filter((r) => r.status === 409 && r.body.msg === ACCOUNT_MESSAGES.invitationAlreadyRedeemed),
    ).toHaveLength(49);
    expect((await post(t.app, '/user/info', {}, { token })).body.data.userPoints).toBe(500);
    const ledger = await t.database.db.selectFrom('credit_ledger').selectAll().execute();
    expect(ledger).toEqual([
      expect.objectContaining({
        user_id: userId,
        delta: 500,
        balance_after: 500,
        reason: 'invitation',
        reference: 'WELCOME',
      }),
    ]);
    const invitation = await t.database.db.selectFrom('invitations').select('uses').executeTakeFirstOrThrow();
    expect(invitation.uses).toBe(1);
  });

  it('refuses unknown, expired and used-up codes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const a = await signIn(t, 'a@example.com');
    vi.setSystemTime(Date.now() + LOGIN_CODES.resendIntervalMs);
    const b = await signIn(t, 'b@example.com');
    await createInvitation(t.database.db, { code: 'ONCE', maxUses: 1 });
    await createInvitation(t.database.db, { code: 'OLD', expiresAt: Date.now() - 1 });

    const unknown = await postJson(t.app, '/user/invitation', { code: 'NOPE' }, { token: a.token });
    expect([unknown.status, unknown.body.msg]).toEqual([404, ACCOUNT_MESSAGES.invitationUnknown]);
    const expired = await postJson(t.app, '/user/invitation', { code: 'OLD' }, { token: a.token });
    expect([expired.status, expired.body.msg]).toEqual([400, ACCOUNT_MESSAGES.invitationExpired]);
    expect((await postJson(t.app, '/user/invitation', { code: 'ONCE' }, { token: a.token })).body.code).toBe(0);
    const usedUp = await postJson(t.app, '/user/invitation', { code: 'ONCE' }, { token: b.token });
    expect([usedUp.status, usedUp.body.msg]).toEqual([409, ACCOUNT_MESSAGES.invitationUsedUp]);
    // The refused redemption left nothing behind.
    expect(await t.database.db.selectFrom('invitation_redemptions').select('user_id').execute()).toEqual([
      { user_id: a.userId },
    ]);
  });
});

describe('POST /user/credits/history', () => {
  it('pages the ledger newest first with the running balance', async () => {
    const { token, userId } = await signIn(t);
    for (const delta of [500, -2, -20, 100]) {
      await t.database.db
        .transaction()
        .execute((trx) =>
          applyCreditChange(trx, { userId, delta, reason: delta > 0 ? 'grant' : 'task', reference: `r${delta}` }),
        );
    }
    const first = await post(t.app, '/user/credits/history', { page: 1, pageSize: 3 }, { token });
    expect(first.body.data).toMatchObject({ total: 4, page: 1, pageSize: 3, balance: 578 });
    expect(first.body.data.list.map((e: { delta: number; balanceAfter: number }) => [e.delta, e.balanceAfter])).toEqual(
      [
        [100, 578],
        [-20, 478],
        [-2, 498],
      ],
    );
    const second = await post(t.app, '/user/credits/history', { page: 2, pageSize: 3 }, { token });
    expect(second.body.data.list).toEqual([
      expect.objectContaining({
        delta: 500,
        balanceAfter: 500,
        reason: 'grant',
        reference: 'r500',
        createdAt: expect.any(Number),
      }),
    ]);
  });
});
