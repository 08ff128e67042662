// Request and answer shapes are written once, as zod schemas (src/lib/api-contract), and their types inferred: the
// files that name those types for the SDK, the site's API client and the tracking client declare no object shape by
// hand (no `interface`, no `{ … }` type), apart from the few below that are no wire shape at all.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The files that must take their shapes from the schemas. */
function shapeFiles(): string[] {
  const inDir = (dir: string, keep: (name: string) => boolean) =>
    readdirSync(join(ROOT, dir))
      .filter((name) => name.endsWith('.ts') && !/\.(test|fixtures)\.ts$/.test(name) && keep(name))
      .map((name) => `${dir}/${name}`);
  return [
    ...inDir('src/lib/sdk', (name) => name.includes('types')),
    ...inDir('src/lib/api', () => true),
    'src/lib/tracking/types.ts',
  ];
}

/**
 * Declarations that may hold a hand-written object shape, by file and name, each with why it is not a request or
 * answer shape. An entry no longer needed fails the test, so the list only shrinks.
 */
const NOT_WIRE_SHAPES: Record<string, string> = {
  'src/lib/api/client.ts Envelope': 'the transport reads every envelope variant (§8 and the public API) loosely',
  'src/lib/api/client.ts RequestOptions': "the client's own options (method, timeout, keepalive)",
  'src/lib/api/not-logged-in.ts NotLoggedIn': 'the in-page notice listeners of a 40001 answer get, not a wire shape',
  'src/lib/api/upload.ts UploadOptions': "the upload helper's options (progress, timeout)",
  'src/lib/api/task-stream.ts Follower': "the stream's in-page subscriber",
  'src/lib/tracking/types.ts EngineFlags': "the engine's own state (SPEC.md §4 flags)",
  'src/lib/tracking/types.ts QueuedEntry': 'the wire entry (inferred) plus the tab, kept in the queue and never sent',
  'src/lib/tracking/types.ts TrackerInit': "what a page passes to init(), the tracker's in-page options",
  'src/lib/tracking/types.ts Answer': 'the transport reads every collector answer generically and adds retryAfterMs',
  'src/lib/tracking/types.ts Notice': 'messages between tabs over BroadcastChannel',
  'src/lib/tracking/types.ts WorkerStatus': 'what the worker reports to its page over Comlink',
  'src/lib/tracking/types.ts TrackingWorkerApi': "the worker's method list over Comlink",
};

/** `file name` of each top-level declaration that holds an interface or an object type literal. */
function handWrittenShapes(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = new Set<string>();
  const nameOf = (node: ts.Node): string => {
    let top = node;
    while (top.parent && top.parent !== source) top = top.parent;
    const named = top as ts.Node & { name?: ts.Node };
    if (named.name && ts.isIdentifier(named.name)) return named.name.text;
    if (ts.isVariableStatement(top)) return top.declarationList.declarations.map((d) => d.name.getText()).join(',');
    return `line ${source.getLineAndCharacterOfPosition(top.getStart()).line + 1}`;
  };
  const visit = (node: ts.Node) => {
    if (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node)) found.add(`${file} ${nameOf(node)}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found];
}

describe('request and answer shapes come from the zod schemas', () => {
  const files = shapeFiles();
  const found = files.flatMap((file) => handWrittenShapes(file, readFileSync(join(ROOT, file), 'utf8')));

  it('reads the SDK, API client and tracking type files', () => {
    for (const file of ['src/lib/sdk/types.ts', 'src/lib/sdk/developer-types.ts', 'src/lib/api/types.ts'])
      expect(files).toContain(file);
    expect(files.filter((f) => f.startsWith('src/lib/api/')).length).toBeGreaterThan(8);
  });

  it('declares no object shape by hand beyond the listed non-wire ones', () => {
    expect(found.filter((at) => !(at in NOT_WIRE_SHAPES))).toEqual([]);
  });

  it('lists no exception that is no longer needed', () => {
    expect(Object.keys(NOT_WIRE_SHAPES).filter((at) => !found.includes(at))).toEqual([]);
  });

  it('catches a shape restated by hand: an interface, a type literal, an inline answer or body type', () => {
    const file = 'src/lib/api/example.ts';
    expect(handWrittenShapes(file, 'export interface TaskResult { taskId: string }')).toEqual([`${file} TaskResult`]);
    expect(handWrittenShapes(file, 'export type Page = { list: string[] } & Base;')).toEqual([`${file} Page`]);
    expect(handWrittenShapes(file, "export const api = { get: () => request<{ key: string }>('/k') };")).toEqual([
      `${file} api`,
    ]);
    expect(handWrittenShapes(file, "export const api = { set: (b: { cap: number }) => request('/c', b) };")).toEqual([
      `${file} api`,
    ]);
    expect(handWrittenShapes(file, 'export type Task = z.infer<typeof taskView>;')).toEqual([]);
  });
});
