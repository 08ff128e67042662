// Every source file stays at or under MAX_LINES lines, so each module keeps one job (DESIGN.md "Layout"); the test names each file over it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Past about 300 lines a module has usually taken on a second job and is hard to read in one sitting; a file that
 * grows over it is split by topic (its tests too), not given a higher limit.
 */
const MAX_LINES = 300;

/** Files allowed over the limit for now, each with the reason; a file that comes back under it must leave the list. */
const ALLOWED: Record<string, string> = {};

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCANNED = ['src', 'server', 'bench', 'scripts', 'tests'];
/** Installed, built, run-time and report output, never written by hand. */
const SKIP_DIRS = new Set(['node_modules', 'dist', 'data', 'out', 'test-results', 'playwright-report', '.astro']);
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|astro|css)$/;
/** A generated file says so in its first lines; it is rewritten by its generator, not split by hand. */
const GENERATED = /@generated|do not edit/i;

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(path);
      } else if (SOURCE.test(entry.name)) files.push(path);
    }
  };
  for (const dir of SCANNED) if (existsSync(join(ROOT, dir))) walk(dir);
  return files;
}

/** Lines as `wc -l` counts them, plus a last line without its newline. */
function lineCount(text: string): number {
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') || text === '' ? breaks : breaks + 1;
}

const sizes = sourceFiles()
  .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }))
  .filter(({ text }) => !GENERATED.test(text.split('\n', 5).join('\n')))
  .map(({ path, text }) => ({ path, lines: lineCount(text) }));

describe(`source files stay at or under ${MAX_LINES} lines`, () => {
  it('finds the source tree', () => {
    expect(sizes.length).toBeGreaterThan(100);
    expect(sizes.map((s) => s.path)).toContain(join('tests', 'structure', 'file-size.test.ts'));
  });

  it('no file is over the limit', () => {
    const over = sizes.filter((s) => s.lines > MAX_LINES && !(s.path in ALLOWED)).map((s) => `${s.path}: ${s.lines} lines`);
    expect(over, `split these by topic (at most ${MAX_LINES} lines each)`).toEqual([]);
  });

  it('every allowed file still exists and is still over the limit', () => {
    const lines = new Map(sizes.map((s) => [s.path, s.lines]));
    const stale = Object.keys(ALLOWED).filter((path) => (lines.get(path) ?? 0) <= MAX_LINES);
    expect(stale, `remove these from ALLOWED`).toEqual([]);
  });
});
