// The ledger on SQLite and (with TEST_DATABASE_URL) PostgreSQL: never below zero, one row per change, atomic
// redemptions.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInvitation, redeemInvitation } from '../accounts';
import { migrateToLatest, type AppDatabase } from '../db';
import { databaseEngines } from '../db/test-support/engines';
import { applyCreditChange, InsufficientCreditsError, UnknownUserError } from './index';

const engines = databaseEngines('credits', { maxConnections: 20 });

describe.each(engines)('credits on $label', (engine) => {
  let database: AppDatabase;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ database, dispose } = await engine.open());
    await migrateToLatest(database);
    await database.db
      .insertInto('users')
      .values({ id: 'u1', email: 'u1@example.com', created_at: 1, updated_at: 1 })
      .execute();
  });
  afterEach(() => dispose());

  const change = (delta: number) =>
    database.db
      .transaction()
      .execute((trx) => applyCreditChange(trx, { userId: 'u1', delta, reason: 'test', reference: String(delta) }));

  it('writes one ledger row per change with the balance after it', async () => {
    expect((await change(10)).balance).toBe(10);
    expect((await change(-4)).balance).toBe(6);
    const rows = await database.db
      .selectFrom('credit_ledger')
      .select(['delta', 'balance_after', 'reason', 'reference'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { delta: 10, balance_after: 10, reason: 'test', reference: '10' },
      { delta: -4, balance_after: 6, reason: 'test', reference: '-4' },
    ]);
  });

  it('never goes below zero, also when 20 charges race for a balance that covers 5', async () => {
    await change(10);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => change(-2)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect(
      results
        .filter((r) => r.status === 'rejected')
        .every((r) => (r as PromiseRejectedResult).reason instanceof InsufficientCreditsError),
    ).toBe(true);
    const user = await database.db.selectFrom('users').select('credits').executeTakeFirstOrThrow();
    expect(user.credits).toBe(0);
    expect(await database.db.selectFrom('credit_ledger').select('id').execute()).toHaveLength(6);
  });

  it('rolls the change back with the transaction that made it, and refuses unknown users and zero', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await applyCreditChange(trx, { userId: 'u1', delta: 5, reason: 'test' });
        throw new Error('task failed');
      }),
    ).rejects.toThrow('task failed');
    expect(await database.db.selectFrom('credit_ledger').select('id').execute()).toEqual([]);
    await expect(
      database.db.transaction().execute((trx) => applyCreditChange(trx, { userId: 'ghost', delta: 5, reason: 'x' })),
    ).rejects.toBeInstanceOf(UnknownUserError);
    await expect(change(0)).rejects.toThrow(RangeError);
  });

  it('redeems an invitation once when one user sends 50 redemptions in parallel', async () => {
    await createInvitation(database.db, { code: 'RACE', maxUses: 100 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => redeemInvitation(database.db, { userId: 'u1', code: 'RACE' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const user = await database.db.selectFrom('users').select('credits').executeTakeFirstOrThrow();
    expect(user.credits).toBe(500);
    expect(await database.db.selectFrom('credit_ledger').select('delta').execute()).toEqual([{ delta: 500 }]);
  });
});
