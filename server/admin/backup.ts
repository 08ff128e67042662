// `npm run admin -- backup|restore`: the embedded SQLite database copied with SQLite's online backup API, consistent
// while the server writes.
import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { makePrivateDir, restrictToOwner } from '../private-files';
import { migrations } from '../db';
import { UsageError } from './commands';

/** The file of a sqlite: database URL; a PostgreSQL URL is answered with where its backups are described. */
export function sqliteFileOf(databaseUrl: string): string {
  const url = databaseUrl.trim();
  if (/^postgres(ql)?:\/\//i.test(url)) {
    throw new UsageError(
      'DATABASE_URL is PostgreSQL: back it up with pg_dump or continuous archiving (docs/operations.md ' +
        '"Backups"); this command copies the embedded SQLite database',
    );
  }
  let file = url.replace(/^sqlite:/i, '');
  if (file.startsWith('//')) file = file.slice(2);
  if (file === '' || file === ':memory:')
    throw new UsageError('DATABASE_URL names no database file (an in-memory database cannot be backed up)');
  return path.resolve(file);
}

/** Pages per backup step: everything in one step, so the copy is one snapshot even while other connections write. */
const ALL_PAGES = 0x7fffffff;

/** What a copied database holds, read back from the copy itself. */
export interface BackupSummary {
  file: string;
  bytes: number;
  schemaVersion: number;
  users: number;
  tasks: number;
  ledgerRows: number;
}

function summarise(file: string): BackupSummary {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const check = db.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`${file} failed SQLite's integrity check: ${String(check)}`);
    const hasVersions = db
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'schema_version'")
      .get();
    if (!hasVersions)
      throw new UsageError(
        `${file} is a SQLite file but not a database of this server (it has no schema_version table)`,
      );
    const count = (table: string) => {
      const exists = db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table);
      return exists ? (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n : 0;
    };
    const version = (db.prepare('select max(version) as v from schema_version').get() as { v: number | null }).v ?? 0;
    const pages = db.pragma('page_count', { simple: true }) as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    return {
      file,
      bytes: pages * pageSize,
      schemaVersion: version,
      users: count('users'),
      tasks: count('tasks'),
      ledgerRows: count('credit_ledger'),
    };
  } finally {
    db.close();
  }
}

/**
 * Copies the live database to `dest` (owner-only): written beside it first and renamed when whole and checked, so a
 * crashed backup never leaves a file that looks complete. Refuses to replace an existing file unless `force`.
 */
export async function backupSqlite(source: string, dest: string, o: { force?: boolean } = {}): Promise<BackupSummary> {
  const target = path.resolve(dest);
  if (!existsSync(source)) throw new UsageError(`there is no database at ${source} to back up`);
  if (existsSync(target) && !o.force)
    throw new UsageError(`${target} exists; choose another file or pass --force to replace it`);
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  const db = new Database(source, { fileMustExist: true });
  try {
    // A writer holding the lock makes a step wait, not fail.
    db.pragma('busy_timeout = 5000');
    await db.backup(partial, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
  try {
    restrictToOwner(partial);
    // One self-contained file: the copy leaves WAL mode, so it needs no -wal or -shm beside it.
    const copy = new Database(partial, { fileMustExist: true });
    copy.pragma('journal_mode = DELETE');
    copy.close();
    const summary = summarise(partial);
    renameSync(partial, target);
    return { ...summary, file: target };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/**
 * Writes a backup over the database file through SQLite (the backup API in reverse, as the sqlite3 shell's .restore
 * does), so its WAL is handled. Stop the server first. Refuses a backup of a newer schema than this server knows, and
 * a database that holds users unless `force`.
 */
export async function restoreSqlite(
  backup: string,
  target: string,
  o: { force?: boolean } = {},
): Promise<BackupSummary> {
  const from = path.resolve(backup);
  if (!existsSync(from)) throw new UsageError(`there is no backup at ${from}`);
  const summary = summarise(from);
  const known = migrations.length;
  if (summary.schemaVersion > known)
    throw new UsageError(
      `${from} has schema version ${summary.schemaVersion}, newer than this server's ${known}: restore it with the newer release`,
    );
  if (existsSync(target) && !o.force) {
    const current = summarise(target);
    if (current.users > 0)
      throw new UsageError(
        `the database at ${target} holds ${current.users} users; stop the server and pass --force to replace it with the backup`,
      );
  }
  makePrivateDir(path.dirname(target));
  const db = new Database(from, { readonly: true, fileMustExist: true });
  try {
    await db.backup(target, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
  restrictToOwner(target);
  return { ...summarise(target), file: target };
}
