// No two folders, and no two files, of src/ and server/ import each other, directly or round a longer chain (DESIGN.md
// "Layout": areas depend one way, and so do the modules in one); the test names every loop it finds, one import a step.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { filesUnder, ROOT } from './source-tree';

const SOURCE = /\.(ts|tsx|mts|mjs|astro)$/;
/** Resolution order for a specifier written without its extension, then as a folder with an index module. */
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.mjs', '.js', '.astro'];

/**
 * Test files and their fixtures are left out: a test may reach the code under test and any test support from anywhere,
 * and nothing imports a test. Test support (test-support/ folders) counts like shipped code, so shipped code that
 * imported a harness importing it back would be a loop here too.
 */
const isTestOnly = (path: string) => /\.(test|fixtures)\.[a-z]+$/.test(path);

/** The script of a file: the whole of a TypeScript module, the frontmatter and <script> blocks of an .astro file. */
function scriptOf(path: string, text: string): string {
  if (!path.endsWith('.astro')) return text;
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
  return [frontmatter, ...[...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!)].join('\n');
}

/** Specifiers of static imports, `export … from` and `import()` with a string literal (type-only ones too). */
function specifiers(script: string): string[] {
  return ts.preProcessFile(script, true, true).importedFiles.map((ref) => ref.fileName);
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/** The repository path a relative specifier names, or null for a package or a file outside the scanned tree. */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(ROOT, dirname(from), specifier);
  const stem = base.replace(/\.js$/, '');
  const candidates = [
    base,
    ...EXTENSIONS.map((ext) => stem + ext),
    ...EXTENSIONS.map((ext) => join(base, `index${ext}`)),
  ];
  const found = candidates.find(isFile);
  return found ? relative(ROOT, found).split('\\').join('/') : null;
}

interface Edge {
  /** The importing file and the file it imports, the witness shown for this step of a loop. */
  from: string;
  to: string;
}

/** Folder → folder it imports → the first import seen between them. */
function folderGraph(files: string[]): Map<string, Map<string, Edge>> {
  const graph = new Map<string, Map<string, Edge>>();
  for (const from of files) {
    const folder = dirname(from);
    const out = graph.get(folder) ?? new Map<string, Edge>();
    graph.set(folder, out);
    for (const specifier of specifiers(scriptOf(from, readFileSync(join(ROOT, from), 'utf8')))) {
      const to = resolveImport(from, specifier);
      if (!to || isTestOnly(to) || dirname(to) === folder || out.has(dirname(to))) continue;
      out.set(dirname(to), { from, to });
    }
  }
  return graph;
}

/** File → file it imports: type-only and dynamic imports count, since they too say which module depends on which. */
function fileGraph(files: string[]): Map<string, Map<string, Edge>> {
  const graph = new Map<string, Map<string, Edge>>();
  for (const from of files) {
    const out = new Map<string, Edge>();
    graph.set(from, out);
    for (const specifier of specifiers(scriptOf(from, readFileSync(join(ROOT, from), 'utf8')))) {
      const to = resolveImport(from, specifier);
      if (to && !isTestOnly(to) && to !== from) out.set(to, { from, to });
    }
  }
  return graph;
}

/**
 * Strongly connected components of two or more nodes (Tarjan), each a set of folders or files that reach one another.
 */
function loops(graph: Map<string, Map<string, Edge>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

/** One shortest loop through `start` inside its component, written as node → node with the import of each step. */
function describeLoop(graph: Map<string, Map<string, Edge>>, component: string[]): string {
  const members = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  let closing: string | null = null;
  while (queue.length > 0 && closing === null) {
    const node = queue.shift()!;
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        closing = node;
        break;
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  const path = [start];
  for (let node = closing!; node !== start; node = previous.get(node)!) path.splice(1, 0, node);
  path.push(start);
  const steps = path.slice(1).map((to, i) => {
    const edge = graph.get(path[i]!)!.get(to)!;
    const witness = edge.from === path[i] && edge.to === to ? '' : ` (${edge.from} imports ${edge.to})`;
    return `  ${path[i]} → ${to}${witness}`;
  });
  return [`loop among ${component.join(', ')}:`, ...steps].join('\n');
}

const files = filesUnder(['src', 'server'], SOURCE).filter((path) => !path.endsWith('.d.ts') && !isTestOnly(path));
const graph = folderGraph(files);
const modules = fileGraph(files);

describe('folder imports', () => {
  it('reads every kind of import, resolved to its file', () => {
    const script = [
      "import { a } from './a';",
      "import type { B } from '../b/index';",
      "export * from './c.ts';",
      "export { d } from './d';",
      "const e = await import('./e');",
      "import './f.css';",
    ].join('\n');
    expect(specifiers(script)).toEqual(['./a', '../b/index', './c.ts', './d', './e', './f.css']);
    expect(resolveImport('src/layouts/BaseLayout.astro', '../lib/tracking/site')).toBe('src/lib/tracking/site.ts');
    expect(resolveImport('server/app.ts', './db')).toBe('server/db/index.ts');
    expect(resolveImport('server/app.ts', '../src/lib/product-rules')).toBe('src/lib/product-rules/index.ts');
    expect(resolveImport('server/app.ts', 'hono')).toBeNull();
  });

  it('finds the source tree and the folders it imports', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('src/layouts/BaseLayout.astro');
    expect(files.some(isTestOnly)).toBe(false);
    expect(graph.get('src/layouts')?.has('src/lib/tracking')).toBe(true);
    expect(graph.get('server')?.has('server/db')).toBe(true);
    expect(graph.get('server/test-support')?.has('server')).toBe(true);
  });

  it('a loop is found, a parent and its subfolder included, and named with its imports', () => {
    const edge = (from: string, to: string): [string, Edge] => [dirname(to), { from, to }];
    const sample = new Map([
      ['a', new Map([edge('a/x.ts', 'a/b/y.ts')])],
      ['a/b', new Map([edge('a/b/y.ts', 'c/z.ts')])],
      ['c', new Map([edge('c/z.ts', 'a/x.ts')])],
      ['d', new Map([edge('d/w.ts', 'a/x.ts')])],
    ]);
    const found = loops(sample);
    expect(found).toEqual([['a', 'a/b', 'c']]);
    expect(describeLoop(sample, found[0]!)).toBe(
      [
        'loop among a, a/b, c:',
        '  a → a/b (a/x.ts imports a/b/y.ts)',
        '  a/b → c (a/b/y.ts imports c/z.ts)',
        '  c → a (c/z.ts imports a/x.ts)',
      ].join('\n'),
    );
  });

  it('no folder imports, directly or through others, a folder that imports it', () => {
    expect(loops(graph).map((component) => describeLoop(graph, component))).toEqual([]);
  });
});

describe('file imports', () => {
  it('a file reaches the files it imports, a type-only or dynamic import included', () => {
    expect(modules.get('src/islands/playground/run-card-loader.ts')?.has('src/islands/playground/RunCard.tsx')).toBe(
      true,
    );
    expect(modules.get('server/tasks/runner.ts')?.has('server/tasks/task-types.ts')).toBe(true);
  });

  it('a loop of files is found and named file by file', () => {
    const edge = (from: string, to: string): [string, Edge] => [to, { from, to }];
    const sample = new Map([
      ['x.ts', new Map([edge('x.ts', 'y.ts')])],
      ['y.ts', new Map([edge('y.ts', 'x.ts'), edge('y.ts', 'z.ts')])],
      ['z.ts', new Map<string, Edge>()],
    ]);
    const found = loops(sample);
    expect(found).toEqual([['x.ts', 'y.ts']]);
    expect(describeLoop(sample, found[0]!)).toBe(
      ['loop among x.ts, y.ts:', '  x.ts → y.ts', '  y.ts → x.ts'].join('\n'),
    );
  });

  it('no file imports, directly or through others, a file that imports it', () => {
    expect(loops(modules).map((component) => describeLoop(modules, component))).toEqual([]);
  });
});
