// POST /user/infoAsked: the information modal is offered once per account, remembered on the server (SPEC.md §4
// "shown once per user"), so another browser of the same account does not offer it again; /user/info reads it back.
import { describe, expect, it, vi } from 'vitest';
import { API_CODES, LOGIN_CODES } from '../../src/lib/product-rules';
import { migrateToLatest, migrations, openDatabase } from '../db';
import { post, signIn, useAccountsTestApp } from '../test-support/accounts';

const t = useAccountsTestApp();
const info = async (token: string) => (await post(t.app, '/user/info', {}, { token })).body.data;

describe('POST /user/infoAsked', () => {
  it('is false for a new account, true once the site says it asked, and stays at the first time', async () => {
    const { token, userId } = await signIn(t, 'asked@example.com');
    expect((await info(token)).infoAsked).toBe(false);
    expect((await post(t.app, '/user/infoAsked', {}, { token })).body.code).toBe(0);
    const first = await t.database.db
      .selectFrom('users')
      .select('info_asked_at')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(first.info_asked_at).toBeGreaterThan(0);
    // Another browser of the same account, signing in later: its session reads the same answer.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + LOGIN_CODES.resendIntervalMs);
    const other = await signIn(t, 'asked@example.com');
    vi.useRealTimers();
    expect((await info(other.token)).infoAsked).toBe(true);
    // Asking again keeps the first time.
    await post(t.app, '/user/infoAsked', {}, { token });
    const again = await t.database.db
      .selectFrom('users')
      .select('info_asked_at')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(again.info_asked_at).toBe(first.info_asked_at);
  });

  it('needs a session', async () => {
    const res = await post(t.app, '/user/infoAsked', {});
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(API_CODES.notLoggedIn);
  });

  it('migration 12 counts an account that already named its company as asked, and no other', async () => {
    const db = await openDatabase('sqlite::memory:');
    try {
      await migrateToLatest(
        db,
        migrations.filter((m) => m.version < 12),
      );
      const user = (id: string, company: string | null) => ({
        id,
        email: `${id}@example.com`,
        company,
        created_at: 1,
        updated_at: 7,
      });
      await db.db
        .insertInto('users')
        .values([user('u_named', 'Acme'), user('u_blank', null)] as never)
        .execute();
      await migrateToLatest(db);
      const rows = await db.db.selectFrom('users').select(['id', 'info_asked_at']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: 'u_blank', info_asked_at: null },
        { id: 'u_named', info_asked_at: 7 },
      ]);
    } finally {
      await db.close();
    }
  });
});
