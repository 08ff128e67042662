// The built site keeps every page's first-load JavaScript within its budget (src/lib/product-rules/page-budgets.ts):
// sizes of built files are deterministic, so this reads dist/ (built first when stale) and names every page over
// budget.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { pageLoads, siteDir } from '../../bench/page-weight.mjs';
import { PAGE_BUDGETS, pageKind } from '../../src/lib/product-rules';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
type Load = ReturnType<typeof pageLoads>[number];
let loads: Load[];

beforeAll(() => {
  // The same stamp check the server start and the e2e run use: a build only when sources or PUBLIC_* settings changed.
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-site.mjs'), '--if-stale'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`the site did not build:\n${build.stdout}\n${build.stderr}`);
  loads = pageLoads(siteDir());
}, 300_000);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
/** The chunk text of a page's first-load files, to look for what must not be there. */
const code = (load: Load) => load.files.map((url) => readFileSync(path.join(siteDir(), url), 'utf8')).join('\n');

describe('first-load JavaScript of the built pages', () => {
  it('measures every kind of page the budgets name', () => {
    const kinds = new Set(loads.map((l) => pageKind(l.route)));
    expect([...kinds].sort()).toEqual(Object.keys(PAGE_BUDGETS).sort());
    for (const route of [
      '/pricing',
      '/docs',
      '/reference',
      '/contact-us',
      '/payment',
      '/404',
      '/playground',
      '/playground/speech',
      '/dashboard',
    ]) {
      expect(loads.map((l) => l.route)).toContain(route);
    }
  });

  it('keeps each page within its budget (gzip, file by file, inline scripts included)', () => {
    const over = loads
      .filter((l) => l.gzipBytes > PAGE_BUDGETS[pageKind(l.route)])
      .map(
        (l) =>
          `${l.route}: ${kb(l.gzipBytes)} > ${kb(PAGE_BUDGETS[pageKind(l.route)])} in ${l.files.length} files (${l.files.join(', ')})`,
      );
    expect(over).toEqual([]);
  });

  it('loads no React, and no modal, on a page without an island of its own', () => {
    const statics = loads.filter((l) => pageKind(l.route) === 'static' && !l.html.includes('<astro-island'));
    expect(statics.map((l) => l.route)).toContain('/pricing');
    for (const load of statics) {
      const text = code(load);
      // react-dom's client and React's own element marker, and the login modal's heading.
      expect(text, load.route).not.toMatch(
        /__reactContainer|Symbol\.for\(["'`]react\.element["'`]\)|react\.transitional\.element/,
      );
      expect(text, load.route).not.toContain('Log in or sign up');
    }
  });
});
