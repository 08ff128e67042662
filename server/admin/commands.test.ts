// The operator CLI's commands against a real database: list, suspend, grant and create invitations.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import { runAdmin, UsageError } from './commands';

let database: AppDatabase;
let out: string[];
const run = (...argv: string[]) => runAdmin(database.db, argv, (line) => out.push(line));

beforeEach(async () => {
  database = await openDatabase('sqlite::memory:');
  await migrateToLatest(database);
  await database.db.insertInto('users').values({ id: 'u_admin_test', email: 'op@example.com', created_at: 1, updated_at: 1 }).execute();
  out = [];
});
afterEach(() => database.close());

describe('npm run admin', () => {
  it('lists users, suspends and restores one by email', async () => {
    await run('list-users');
    expect(out[1]).toMatch(/^u_admin_test\top@example.com\t0\tno\t/);
    await run('suspend', 'op@example.com');
    expect((await database.db.selectFrom('users').select('suspended').executeTakeFirstOrThrow()).suspended).toBe(1);
    await run('unsuspend', 'u_admin_test');
    expect((await database.db.selectFrom('users').select('suspended').executeTakeFirstOrThrow()).suspended).toBe(0);
  });

  it('grants credits through the ledger and refuses to go below zero', async () => {
    await run('grant', 'u_admin_test', '300', '--note', 'support ticket 7');
    expect(out.at(-1)).toBe('u_admin_test balance 300');
    const ledger = await database.db.selectFrom('credit_ledger').select(['delta', 'reason', 'reference']).execute();
    expect(ledger).toEqual([{ delta: 300, reason: 'grant', reference: 'support ticket 7' }]);
    await expect(run('grant', 'u_admin_test', '--', '-301')).rejects.toThrow('Not enough credits');
  });

  it('finds a user by email however it is typed, as sign-in normalises it', async () => {
    await run('grant', ' OP@Example.COM ', '10');
    expect(out.at(-1)).toBe('u_admin_test balance 10');
    await run('suspend', 'Op@example.com');
    expect((await database.db.selectFrom('users').select('suspended').executeTakeFirstOrThrow()).suspended).toBe(1);
  });

  it('creates invitations with a use limit and expiry', async () => {
    await run('create-invitation', '--code', 'SPRING', '--max-uses', '3', '--expires-days', '7');
    const row = await database.db.selectFrom('invitations').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ code: 'SPRING', credits: 500, max_uses: 3 });
    expect(row.expires_at).toBeGreaterThan(Date.now());
  });

  it('explains bad usage', async () => {
    await expect(run('grant', 'nobody@example.com', '5')).rejects.toThrow(UsageError);
    await expect(run('grant', 'u_admin_test', 'lots')).rejects.toThrow('credits must be a whole number');
    await expect(run('fly')).rejects.toThrow('unknown command "fly"');
  });
});
