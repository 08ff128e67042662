// Everything the server keeps under DATA_DIR (folder, database and its WAL files, secret key, media, work folder) is
// owner-only.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyServerKeys } from '../accounts/secret';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import { prepareWorkRoot } from '../tools';
import { localMediaStore } from '../media';

let parent: string;
let database: AppDatabase | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
  rmSync(parent, { recursive: true, force: true });
});

/** The group and other permission bits of each path: all must be zero. */
function openBits(paths: string[]): Record<string, string> {
  return Object.fromEntries(paths.map((p) => [path.relative(parent, p), (statSync(p).mode & 0o077).toString(8)]));
}

describe('files under DATA_DIR', () => {
  it('are created readable by their owner only, whatever the process umask', async () => {
    parent = mkdtempSync(path.join(tmpdir(), 'private-files-'));
    const dataDir = path.join(parent, 'data');
    const dbFile = path.join(dataDir, 'app.db');
    const previous = process.umask(0o022);
    try {
      await prepareWorkRoot(path.join(dataDir, 'tmp'));
      database = await openDatabase(`sqlite:${dbFile}`);
      await migrateToLatest(database);
      lazyServerKeys({ secretKey: null, dataDir })();
      await localMediaStore(path.join(dataDir, 'media')).put('ab12cd.wav', new Uint8Array([1, 2, 3]));
    } finally {
      process.umask(previous);
    }
    const created = [
      dataDir,
      path.join(dataDir, 'tmp'),
      dbFile,
      `${dbFile}-wal`,
      `${dbFile}-shm`,
      path.join(dataDir, 'secret.key'),
      path.join(dataDir, 'media'),
      path.join(dataDir, 'media', 'ab'),
      path.join(dataDir, 'media', 'ab', 'ab12cd.wav'),
    ];
    expect(openBits(created)).toEqual(Object.fromEntries(created.map((p) => [path.relative(parent, p), '0'])));
  });

  it('narrows a database file an older version left readable by others', async () => {
    parent = mkdtempSync(path.join(tmpdir(), 'private-files-'));
    const dbFile = path.join(parent, 'app.db');
    writeFileSync(dbFile, '', { mode: 0o644 });
    writeFileSync(`${dbFile}-wal`, '', { mode: 0o644 });
    database = await openDatabase(`sqlite:${dbFile}`);
    await migrateToLatest(database);
    expect(openBits([dbFile, `${dbFile}-wal`, `${dbFile}-shm`])).toEqual({
      'app.db': '0',
      'app.db-wal': '0',
      'app.db-shm': '0',
    });
  });
});
