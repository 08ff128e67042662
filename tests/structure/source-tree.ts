// The hand-written source tree the structure tests read: the repository's root and the files of its source folders.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Every folder of hand-written code. */
export const SOURCE_DIRS = ['src', 'server', 'tests', 'bench', 'scripts'];
/** Installed, built, run-time and report output, never written by hand. */
const SKIP_DIRS = new Set(['node_modules', 'dist', 'data', 'out', 'test-results', 'playwright-report', '.astro']);

/** The files under `dirs` (paths from ROOT) whose names match `names`, as paths from ROOT. */
export function filesUnder(dirs: string[], names: RegExp): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(path);
      } else if (names.test(entry.name)) files.push(path);
    }
  };
  for (const dir of dirs) if (existsSync(join(ROOT, dir))) walk(dir);
  return files;
}
