// Comments and test names cite only what is in the repository: SPEC.md §N and DESIGN.md sections (docs/), docs/*.md
// pages.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesUnder, ROOT, SOURCE_DIRS } from './source-tree';

const ROOT_FILES = ['astro.config.mjs', 'vitest.config.ts', 'eslint.config.js'];
const EXTENSIONS = /\.(ts|tsx|mts|cts|astro|mjs|cjs|js|css|md)$/;
const SELF = relative(ROOT, fileURLToPath(import.meta.url));

/** Numbered tickets and notes that live outside the repository. */
const OUTSIDE = [
  { pattern: /\bissues?[\s#-]*\d+/i, why: 'cites a ticket number; say the rule instead' },
  { pattern: /\bRESEARCH\.md\b/, why: 'cites notes outside the repository; state the fact or cite docs/*.md' },
  { pattern: /\bDEVELOPERS\b/, why: 'cites a document outside the repository' },
  { pattern: /\bshared\/[A-Z]+\.md\b/, why: 'cites a document outside the repository; cite docs/*.md' },
];

function sourceFiles(): string[] {
  const files = filesUnder(SOURCE_DIRS, EXTENSIONS).filter((path) => path !== SELF);
  return [...files, ...ROOT_FILES.filter((file) => existsSync(join(ROOT, file)))];
}

/** Section numbers of docs/SPEC.md ("## 4. States and transitions" → 4). */
function specSections(text: string): Set<string> {
  return new Set([...text.matchAll(/^## (\d+)\./gm)].map((m) => m[1]!));
}

/** Names DESIGN.md "…" may cite: its headings, the lead words of its rules, the first cells of its tables. */
function designSections(text: string): Set<string> {
  const names = [
    ...[...text.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/^- ([^:\n]+):/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/^\| ([^|\n]+?) \|/gm)].map((m) => m[1]!),
  ];
  return new Set(names.map((name) => name.trim()));
}

/** Every problem with the citations on one line of text. */
function citationProblems(
  line: string,
  docs: { exists: (name: string) => boolean; spec: Set<string>; design: Set<string> },
): string[] {
  const problems = OUTSIDE.filter(({ pattern }) => pattern.test(line)).map(({ why }) => why);
  for (const m of line.matchAll(/\bdocs\/([\w.-]+?\.md)\b/g)) {
    if (!docs.exists(m[1]!)) problems.push(`docs/${m[1]} does not exist`);
  }
  for (const m of line.matchAll(/(?<![\w/.-])([A-Z][A-Z_-]*\.md)\b/g)) {
    if (!docs.exists(m[1]!) && !existsSync(join(ROOT, m[1]!)))
      problems.push(`${m[1]} is neither in docs/ nor at the root`);
  }
  for (const m of line.matchAll(/\bSPEC\.md((?:[\s,]*(?:and|or)?\s*§\s*\d+)+)/g)) {
    for (const n of m[1]!.matchAll(/§\s*(\d+)/g)) {
      if (!docs.spec.has(n[1]!)) problems.push(`docs/SPEC.md has no section ${n[1]}`);
    }
  }
  for (const m of line.matchAll(/\bDESIGN\.md\s*"([^"]+)"/g)) {
    if (!docs.design.has(m[1]!)) problems.push(`docs/DESIGN.md has no section "${m[1]}"`);
  }
  return problems;
}

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const DOCS = {
  exists: (name: string) => existsSync(join(ROOT, 'docs', name)),
  spec: specSections(read('docs/SPEC.md')),
  design: designSections(read('docs/DESIGN.md')),
};

describe('citations', () => {
  it('finds the citations it must refuse and lets the ones inside the repository through', () => {
    const bad = [
      '// Tasks run here (issue 6).',
      '/** Task lifecycle (Issue #6). */',
      "it('keeps the queue (issue-3)', () => {});",
      '// pagehide, never unload (RESEARCH.md).',
      '// see DEVELOPERS for the release steps',
      '// the rule of ../shared/DESIGN.md',
      '// the limits (docs/no-such-page.md)',
      '// the rule of NOTES.md',
      '// SPEC.md §4 and §12',
      '// DESIGN.md "No such rule"',
    ];
    for (const line of bad) expect(citationProblems(line, DOCS), line).not.toEqual([]);
    const good = [
      '// Status codes of SPEC.md §4, §8 and §9 (docs/public-api.md "Results").',
      '// Credits move only with a ledger row (DESIGN.md "Nothing is lost"); see docs/engines.md and README.md.',
      "const issuer = 'https://accounts.google.com';",
    ];
    for (const line of good) expect(citationProblems(line, DOCS), line).toEqual([]);
  });

  it('every source file cites only the specification, the design and docs pages that exist', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          for (const problem of citationProblems(line, DOCS)) found.push(`${file}:${i + 1}: ${problem}`);
        });
    }
    expect(found).toEqual([]);
  });
});
