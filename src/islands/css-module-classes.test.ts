// Every `styles.name` a component reads exists in the CSS module it imported: a missing class is silently undefined.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..');

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (/\.(tsx|astro)$/.test(entry.name) && !/\.test\.tsx$/.test(entry.name)) yield full;
  }
}

/** The local class names a CSS module defines (names inside :global(…) are not its own). */
function moduleClasses(css: string): Set<string> {
  const bare = css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/:global\([^)]*\)/g, '');
  return new Set([...bare.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((m) => m[1]!));
}

/** Each CSS module a source imports, with the class names it reads by property (`styles.name`). */
function moduleUses(code: string): Array<{ module: string; names: string[] }> {
  // Import lines left out: a module named like its variable (dialogue from './dialogue.module.css') is no use of it.
  const body = code.replace(/^import .*$/gm, '');
  return [...code.matchAll(/import\s+(\w+)\s+from\s+'([^']+\.module\.css)'/g)].map(([, name, module]) => ({
    module: module!,
    names: [...new Set([...body.matchAll(new RegExp(`\\b${name}\\.(\\w+)`, 'g'))].map((m) => m[1]!))],
  }));
}

const uses = [...sources(SRC)].flatMap((file) =>
  moduleUses(readFileSync(file, 'utf8')).map((use) => ({
    file: path.relative(SRC, file),
    css: path.resolve(path.dirname(file), use.module),
    names: use.names,
  })),
);

describe('CSS module classes', () => {
  it('finds the components that import CSS modules and the classes they read', () => {
    expect(uses.length).toBeGreaterThan(20);
    expect(uses.find((u) => u.file.endsWith('VideoScreen.tsx'))?.names).toContain('textarea');
  });

  it('sees a class that is missing, and none inside comments or :global()', () => {
    const css = '/* .gone */ .here { color: red; } .box :global(.button) { gap: 0.5rem; }';
    expect([...moduleClasses(css)].sort()).toEqual(['box', 'here']);
    const [use] = moduleUses("import s from './x.module.css';\nconst a = s.here; const b = s.gone;");
    expect(use!.names.filter((n) => !moduleClasses(css).has(n))).toEqual(['gone']);
  });

  it.each(uses.map((u) => [u.file, u.css, u.names] as const))(
    '%s: every class read is in its module',
    (_, css, names) => {
      const defined = moduleClasses(readFileSync(css, 'utf8'));
      expect(names.filter((n) => !defined.has(n))).toEqual([]);
    },
  );
});
