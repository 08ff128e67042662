// The operator CLI's commands against a real database: list, suspend, grant, invitations, key revoke, and the audit
// trail they leave.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redeemInvitation } from '../accounts';
import { applyCreditChange } from '../credits';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import { runAdmin, UsageError } from './commands';

let database: AppDatabase;
let out: string[];
const run = (...argv: string[]) => runAdmin(database.db, argv, (line) => out.push(line));

beforeEach(async () => {
  database = await openDatabase('sqlite::memory:');
  await migrateToLatest(database);
  await database.db
    .insertInto('users')
    .values({ id: 'u_admin_test', email: 'op@example.com', created_at: 1, updated_at: 1 })
    .execute();
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

describe('the audit trail', () => {
  const runAs = (...argv: string[]) =>
    runAdmin(database.db, argv, (line) => out.push(line), { operator: 'operator:ci' });
  const trail = () => database.db.selectFrom('audit_log').selectAll().orderBy('id').execute();

  it('records every operator action with who, when, what, on what and why', async () => {
    const before = Date.now();
    await runAs('suspend', 'op@example.com', '--reason', 'chargeback fraud, ticket 4411', '--by', 'alice');
    await runAs('unsuspend', 'u_admin_test');
    await runAs('grant', 'u_admin_test', '300', '--reason', 'support ticket 7');
    await runAs('create-invitation', '--code', 'SPRING', '--max-uses', '3', '--reason', 'spring campaign');
    await database.db
      .insertInto('api_keys')
      .values({
        id: 'k1',
        user_id: 'u_admin_test',
        name: 'Default key',
        key_ciphertext: 'x',
        key_hash: 'h',
        key_hint: null,
        is_default: 1,
        created_at: 1,
        last_used_at: null,
      })
      .execute();
    await runAs('revoke-key', 'op@example.com', '--reason', 'key leaked in a public repository');
    expect(await database.db.selectFrom('api_keys').selectAll().execute()).toEqual([]);

    const rows = await trail();
    expect(rows.map((r) => [r.actor, r.action, r.subject, r.reason])).toEqual([
      ['operator:alice', 'user.suspend', 'u_admin_test', 'chargeback fraud, ticket 4411'],
      ['operator:ci', 'user.unsuspend', 'u_admin_test', 'no reason given'],
      ['operator:ci', 'credits.grant', 'u_admin_test', 'support ticket 7'],
      ['operator:ci', 'invitation.create', 'SPRING', 'spring campaign'],
      ['operator:ci', 'api-key.revoke', 'u_admin_test', 'key leaked in a public repository'],
    ]);
    for (const r of rows) expect(r.at).toBeGreaterThanOrEqual(before);
    expect(JSON.parse(rows[2]!.detail!)).toMatchObject({ delta: 300, balanceAfter: 300, ledgerReason: 'grant' });
    await expect(runAs('revoke-key', 'u_admin_test')).rejects.toThrow('has no API key');
  });

  it('records credit changes no task caused (a redeemed invitation names the user), not task holds', async () => {
    await runAs('create-invitation', '--code', 'WELCOME', '--credits', '40');
    await redeemInvitation(database.db, { userId: 'u_admin_test', code: 'WELCOME' });
    await database.db
      .transaction()
      .execute((trx) =>
        applyCreditChange(trx, { userId: 'u_admin_test', delta: -5, reason: 'task-hold', reference: 'task-1' }),
      );
    const changes = (await trail()).filter((r) => r.action.startsWith('credits.'));
    expect(changes.map((r) => [r.actor, r.action, r.subject, r.reason])).toEqual([
      ['user:u_admin_test', 'credits.change', 'u_admin_test', 'redeemed invitation WELCOME'],
    ]);
    expect(JSON.parse(changes[0]!.detail!)).toMatchObject({
      delta: 40,
      balanceAfter: 40,
      ledgerReason: 'invitation',
      reference: 'WELCOME',
    });
  });

  it('lists the trail newest first, by subject (id or email), action and date', async () => {
    await runAs('suspend', 'op@example.com', '--reason', 'first');
    await runAs('grant', 'op@example.com', '10', '--reason', 'second');
    await runAs('create-invitation', '--code', 'OTHER');
    out = [];
    await runAs('audit', '--subject', 'OP@example.com');
    expect(out[0]).toBe('time\tactor\taction\tsubject\treason\tdetail');
    expect(out.slice(1).map((l) => l.split('\t').slice(1, 5))).toEqual([
      ['operator:ci', 'credits.grant', 'u_admin_test', 'second'],
      ['operator:ci', 'user.suspend', 'u_admin_test', 'first'],
    ]);
    out = [];
    await runAs('audit', '--action', 'invitation.create', '--limit', '5');
    expect(out).toHaveLength(2);
    out = [];
    await runAs('audit', '--since', '2999-01-01');
    expect(out).toHaveLength(1);
    await expect(runAs('audit', '--since', 'yesterday')).rejects.toThrow('--since must be a date');
  });
});
