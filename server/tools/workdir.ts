// Scratch folders for ffmpeg and media probes: under DATA_DIR/tmp, which is emptied at every start.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PRIVATE_DIR_MODE } from '../private-files';

/** Marks a folder as this server's own scratch space: only such a folder is ever emptied. */
export const WORK_ROOT_MARKER = '.dreamapi-work';

let root: string | null = null;

/**
 * Empties `dir` (a server killed with SIGKILL leaves its work folders behind) and makes it the home of every
 * later work folder. main.ts calls it before any engine runs. A folder that holds files but not the marker is
 * not ours (DATA_DIR pointed at a folder with a tmp of its own): nothing is deleted and the start is refused.
 */
export async function prepareWorkRoot(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const entries = await readdir(dir);
  if (entries.length > 0 && !entries.includes(WORK_ROOT_MARKER)) {
    throw new Error(
      `${dir} holds files this server did not put there; it empties that folder at every start, so move them or set DATA_DIR to a folder of its own`,
    );
  }
  for (const name of entries)
    if (name !== WORK_ROOT_MARKER) await rm(path.join(dir, name), { recursive: true, force: true });
  await writeFile(path.join(dir, WORK_ROOT_MARKER), 'Scratch space of the DreamAPI server: emptied at every start.\n');
  root = dir;
}

/**
 * Where work folders go: the prepared root, or the system temp folder in a process that prepared none (tests, tools).
 */
export function workRoot(): string {
  return root ?? tmpdir();
}

/** Runs `fn` in a fresh folder under the work root and removes the folder afterwards, whatever happens. */
export async function withWorkDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const base = workRoot();
  await mkdir(base, { recursive: true });
  const dir = await mkdtemp(path.join(base, prefix));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
