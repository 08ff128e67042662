// Every source file is laid out by the formatter (Prettier, .prettierrc.json) and stays at or under MAX_LINES lines as
// formatted, so each module keeps one job (DESIGN.md "Layout"); the test names each file over it or not formatted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { filesUnder, ROOT, SOURCE_DIRS } from './source-tree';

/**
 * Past about 300 lines a module has usually taken on a second job and is hard to read in one sitting; a file that
 * grows over it is split by topic (its tests too), not given a higher limit.
 */
const MAX_LINES = 300;

/** Files allowed over the limit for now, each with the reason; a file that comes back under it must leave the list. */
const ALLOWED: Record<string, string> = {};

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|astro|css)$/;
/** A generated file says so in its first lines; it is rewritten by its generator, not split by hand. */
const GENERATED = /@generated|do not edit/i;

/** Lines as `wc -l` counts them, plus a last line without its newline. */
function lineCount(text: string): number {
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') || text === '' ? breaks : breaks + 1;
}

/** The file as the formatter lays it out, or its own text where the formatter does not handle it (.astro). */
async function formatted(path: string, text: string): Promise<string> {
  const file = join(ROOT, path);
  const info = await prettier.getFileInfo(file, { ignorePath: join(ROOT, '.prettierignore') });
  if (info.ignored || !info.inferredParser) return text;
  const options = await prettier.resolveConfig(file);
  return prettier.format(text, { ...options, filepath: file });
}

const sizes = await Promise.all(
  filesUnder(SOURCE_DIRS, SOURCE)
    .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }))
    .filter(({ text }) => !GENERATED.test(text.split('\n', 5).join('\n')))
    .map(async ({ path, text }) => {
      const laidOut = await formatted(path, text);
      return { path, lines: lineCount(laidOut), formatted: laidOut === text };
    }),
);

describe(`source files stay at or under ${MAX_LINES} lines`, () => {
  it('finds the source tree', () => {
    expect(sizes.length).toBeGreaterThan(100);
    expect(sizes.map((s) => s.path)).toContain(join('tests', 'structure', 'file-size.test.ts'));
  });

  it('the formatter sets a width of at most 120 columns', async () => {
    const options = await prettier.resolveConfig(join(ROOT, 'src', 'index.ts'));
    expect(options?.printWidth).toBeLessThanOrEqual(120);
  });

  it('every file is as the formatter lays it out (npm run format)', () => {
    expect(sizes.filter((s) => !s.formatted).map((s) => s.path)).toEqual([]);
  });

  it('no file is over the limit, counted as formatted', () => {
    const over = sizes
      .filter((s) => s.lines > MAX_LINES && !(s.path in ALLOWED))
      .map((s) => `${s.path}: ${s.lines} lines`);
    expect(over, `split these by topic (at most ${MAX_LINES} lines each)`).toEqual([]);
  });

  it('every allowed file still exists and is still over the limit', () => {
    const lines = new Map(sizes.map((s) => [s.path, s.lines]));
    const stale = Object.keys(ALLOWED).filter((path) => (lines.get(path) ?? 0) <= MAX_LINES);
    expect(stale, `remove these from ALLOWED`).toEqual([]);
  });
});
