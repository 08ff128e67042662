// `npm run admin -- backup` while another process writes, then `restore` into a fresh data folder: every user, ledger
// row and task is there, consistent.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyCreditChange } from '../credits';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';

const dir = mkdtempSync(path.join(tmpdir(), 'admin-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET_KEY = 'backup-test-secret-backup-test-secret-01';

/** Runs the operator CLI as `npm run admin` does, in its own process, against the database `env` names. */
function admin(
  env: Record<string, string>,
  ...argv: string[]
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('server/admin/cli.ts'), ...argv], {
    env: { ...process.env, SECRET_KEY, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

/** One user as the server makes them: a grant, and a task with its credit hold, each in one transaction. */
async function writeUser(database: AppDatabase): Promise<{ userId: string; taskId: string }> {
  const userId = `u${randomUUID().replaceAll('-', '').slice(0, 15)}`;
  const taskId = randomUUID();
  const now = Date.now();
  await database.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('users')
      .values({ id: userId, email: `${userId}@example.com`, created_at: now, updated_at: now })
      .execute();
    await applyCreditChange(trx, { userId, delta: 100, reason: 'grant', reference: 'backup test' });
  });
  await database.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('tasks')
      .values({
        id: taskId,
        user_id: userId,
        feature: 'tts-common',
        status: 'queued',
        source: 'api',
        input: '{}',
        engine: 'espeak',
        price_item: 'tts',
        credits_held: 7,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await applyCreditChange(trx, { userId, delta: -7, reason: 'task-hold', reference: taskId });
  });
  return { userId, taskId };
}

describe('npm run admin -- backup / restore (SQLite)', () => {
  it('backs up while another process writes, and a restore into a fresh data folder holds every user, ledger row and task', async () => {
    const liveDir = path.join(dir, 'live');
    const live = { DATA_DIR: liveDir, DATABASE_URL: `sqlite:${path.join(liveDir, 'app.db')}` };
    const database = await openDatabase(live.DATABASE_URL);
    await migrateToLatest(database);
    const before: Array<{ userId: string; taskId: string }> = [];
    for (let i = 0; i < 40; i++) before.push(await writeUser(database));

    // Writes go on, one transaction after another, for as long as the backup runs in its own process.
    let writing = true;
    let duringBackup = 0;
    const writer = (async () => {
      while (writing) {
        await writeUser(database);
        duringBackup++;
        await new Promise((r) => setImmediate(r));
      }
    })();
    const file = path.join(dir, 'app-backup.db');
    // No SECRET_KEY: the secret lives in DATA_DIR/secret.key, which the command reminds to keep with the backup.
    const backup = await admin({ ...live, SECRET_KEY: '' }, 'backup', file);
    writing = false;
    await writer;
    expect(backup.err).toBe('');
    expect(backup.code).toBe(0);
    expect(duringBackup).toBeGreaterThan(0);
    expect(backup.out).toMatch(/backed up .*app-backup\.db: \d+ bytes, schema version \d+, \d+ users/);
    expect(backup.out).toContain(`keep ${path.join(liveDir, 'secret.key')} with it`);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(existsSync(`${file}-wal`)).toBe(false);
    const total = before.length + duringBackup;
    await database.close();

    // A fresh data folder: no database, no secret yet.
    const fresh = { DATA_DIR: path.join(dir, 'fresh') };
    const restore = await admin(
      { ...fresh, SECRET_KEY: '' },
      'restore',
      file,
      '--reason',
      'restore drill',
      '--by',
      'alice',
    );
    expect(restore.err).toBe('');
    expect(restore.code).toBe(0);
    const restored = await openDatabase(`sqlite:${path.join(fresh.DATA_DIR, 'app.db')}`);
    try {
      const db = restored.db;
      const users = await db.selectFrom('users').select(['id', 'credits']).execute();
      const ledger = await db.selectFrom('credit_ledger').select(['user_id', 'delta', 'reason', 'reference']).execute();
      const tasks = await db.selectFrom('tasks').select(['id', 'user_id', 'credits_held']).execute();
      // Everything committed before the backup began is there…
      const userIds = new Set(users.map((u) => u.id));
      const taskIds = new Set(tasks.map((t) => t.id));
      for (const { userId, taskId } of before) {
        expect(userIds.has(userId)).toBe(true);
        expect(taskIds.has(taskId)).toBe(true);
      }
      expect(users.length).toBeGreaterThanOrEqual(before.length);
      expect(users.length).toBeLessThanOrEqual(total);
      // …and it is one moment's state: every balance equals its ledger, every task has its hold, every hold its task.
      for (const u of users)
        expect(ledger.filter((r) => r.user_id === u.id).reduce((n, r) => n + r.delta, 0)).toBe(u.credits);
      const holds = ledger.filter((r) => r.reason === 'task-hold');
      expect(holds.map((h) => h.reference).sort()).toEqual([...taskIds].sort());
      expect(ledger.filter((r) => r.reason === 'grant')).toHaveLength(users.length);
      const audit = await db.selectFrom('audit_log').selectAll().where('action', '=', 'database.restore').execute();
      expect(audit).toMatchObject([{ actor: 'operator:alice', subject: file, reason: 'restore drill' }]);
    } finally {
      await restored.close();
    }
    expect(restore.out).toContain('copy secret.key');

    // A second restore over a database with users needs --force; a backup never overwrites a file unless told to.
    const again = await admin(fresh, 'restore', file);
    expect(again.code).toBe(1);
    expect(again.err).toContain('pass --force');
    expect((await admin(fresh, 'restore', file, '--force')).code).toBe(0);
    const overwrite = await admin(live, 'backup', file);
    expect(overwrite.code).toBe(1);
    expect(overwrite.err).toContain('exists');
  }, 60_000);

  it('points a PostgreSQL database to pg_dump, and refuses a file that is not a backup', async () => {
    const pgBackup = await admin(
      { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      'backup',
      path.join(dir, 'x.db'),
    );
    expect(pgBackup.code).toBe(1);
    expect(pgBackup.err).toContain('pg_dump');
    const missing = await admin({ DATA_DIR: path.join(dir, 'other') }, 'restore', path.join(dir, 'no-such-backup.db'));
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('there is no backup');
  }, 30_000);
});
