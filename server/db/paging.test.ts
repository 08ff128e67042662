// Offset paging on SQLite and, when TEST_DATABASE_URL is set, PostgreSQL: a page of rows in order, and the count of
// every row the query matches, joins included.
import { beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, pageOf, type AppDatabase } from './index.ts';
import { databaseEachTest, databaseTargets, newUser } from './test-support/targets.ts';

describe.each(databaseTargets())('pageOf on $label', (target) => {
  const database = databaseEachTest(target);
  let app: AppDatabase;
  beforeEach(async () => {
    app = await database.open();
    await migrateToLatest(app);
    await app.db
      .insertInto('users')
      .values([newUser('u_a', 'a@example.com'), newUser('u_b', null)])
      .execute();
    const entry = (user_id: string, delta: number) => ({
      user_id,
      delta,
      balance_after: 0,
      reason: 'grant',
      reference: null,
      created_at: 1,
    });
    await app.db
      .insertInto('credit_ledger')
      .values([1, 2, 3, 4, 5].map((delta) => entry('u_a', delta)).concat(entry('u_b', 9)))
      .execute();
  });

  const ledgerOf = (userId: string) =>
    app.db
      .selectFrom('credit_ledger as l')
      .leftJoin('users as u', 'u.id', 'l.user_id')
      .select(['l.delta', 'u.email'])
      .where('l.user_id', '=', userId)
      .orderBy('l.id', 'desc');

  it.each([
    { page: 1, deltas: [5, 4] },
    { page: 2, deltas: [3, 2] },
    { page: 3, deltas: [1] },
    { page: 4, deltas: [] },
  ])('answers page $page of a query with its rows in order and the total of all', async ({ page, deltas }) => {
    const answer = await pageOf(ledgerOf('u_a'), page, 2, (r) => `${r.email} ${r.delta}`);
    expect(answer).toEqual({ list: deltas.map((d) => `a@example.com ${d}`), total: 5, page, pageSize: 2 });
  });

  it('counts only the rows the query matches', async () => {
    expect(await pageOf(ledgerOf('u_b'), 1, 10, (r) => r.delta)).toEqual({
      list: [9],
      total: 1,
      page: 1,
      pageSize: 10,
    });
    expect(await pageOf(ledgerOf('u_none'), 1, 10, (r) => r.delta)).toMatchObject({ list: [], total: 0 });
  });
});
