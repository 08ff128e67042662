// Prepared queries on SQLite and, when TEST_DATABASE_URL is set, PostgreSQL: built once per database, each call with
// its own values, misuse refused.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, preparedQuery, type AppDatabase } from './index.ts';
import { databaseTargets, newUser, type Fixture } from './test-support/targets.ts';

const targets = databaseTargets();

describe.each(targets)('preparedQuery on $label', (target) => {
  let fixture: Fixture;
  let app: AppDatabase;
  beforeEach(async () => {
    fixture = await target.create();
    app = await fixture.open();
    await migrateToLatest(app);
    await app.db
      .insertInto('users')
      .values([newUser('u_a', 'a@example.com'), newUser('u_b', 'b@example.com')])
      .execute();
    const now = Date.now();
    await app.db
      .insertInto('sessions')
      .values([
        { token_hash: 'h1', user_id: 'u_a', created_at: now, expires_at: now + 1000 },
        { token_hash: 'h2', user_id: 'u_a', created_at: now, expires_at: now + 1000, revoked_at: now },
        { token_hash: 'h3', user_id: 'u_b', created_at: now, expires_at: now - 1 },
      ])
      .execute();
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('answers each call with its own values, the same rows as the query built anew, building it once', async () => {
    let builds = 0;
    const live = preparedQuery((db, hash: string, now: number) => {
      builds += 1;
      return db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['users.id', 'users.email'])
        .where('sessions.token_hash', '=', hash)
        .where('sessions.expires_at', '>', now)
        .where('sessions.revoked_at', 'is', null);
    });
    const now = Date.now();
    expect(await live.first(app.db, 'h1', now)).toEqual({ id: 'u_a', email: 'a@example.com' });
    expect(await live.first(app.db, 'h2', now)).toBeUndefined();
    expect(await live.first(app.db, 'h3', now)).toBeUndefined();
    expect(await live.first(app.db, 'h3', now - 10_000)).toEqual({ id: 'u_b', email: 'b@example.com' });
    expect(await live.all(app.db, 'h1', now)).toEqual(
      await app.db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['users.id', 'users.email'])
        .where('sessions.token_hash', '=', 'h1')
        .execute(),
    );
    expect(builds).toBe(1);
  });

  it('keeps constants the query was built with next to the values of the call', async () => {
    const sessionsOf = preparedQuery((db, userId: string) =>
      db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).orderBy('token_hash').limit(1),
    );
    expect(await sessionsOf.all(app.db, 'u_a')).toEqual([{ token_hash: 'h1' }]);
    expect(await sessionsOf.all(app.db, 'u_none')).toEqual([]);
  });

  it('refuses a value that does not become a parameter, and fills every place of one used twice', async () => {
    const unused = preparedQuery((db, _id: string) => db.selectFrom('users').select('id'));
    await expect(unused.all(app.db, 'u_a')).rejects.toThrow(/each of the 1 values must become a parameter/);
    const twice = preparedQuery((db, key: string) =>
      db
        .selectFrom('users')
        .select('id')
        .where((eb) => eb.or([eb('id', '=', key), eb('email', '=', key)])),
    );
    expect(await twice.all(app.db, 'u_b')).toEqual([{ id: 'u_b' }]);
    expect(await twice.all(app.db, 'b@example.com')).toEqual([{ id: 'u_b' }]);
  });
});
