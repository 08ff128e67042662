// Owner-only modes for what the server keeps on disk (database, secret key, media): see docs/security.md.
import { chmodSync, mkdirSync } from 'node:fs';

/** Folders the server creates under DATA_DIR (and DATA_DIR itself): only the server's user may list them. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files the server writes: only the server's user may read them. */
export const PRIVATE_FILE_MODE = 0o600;
/**
 * Set at start-up as a safety net: it also covers the files created by others on our behalf (SQLite's
 * -wal/-shm, ffmpeg's outputs) and any future write that forgets an explicit mode.
 */
export const PRIVATE_UMASK = 0o077;

/**
 * Creates the folder and any missing parents owner-only; an existing folder keeps its mode (it may be a shared parent).
 */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Narrows an existing file to owner-only, e.g. a database created by an older version with the default mode.
 * A missing file is fine, and a file owned by another user (EPERM) keeps its owner's choice.
 */
export function restrictToOwner(file: string): void {
  try {
    chmodSync(file, PRIVATE_FILE_MODE);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}
