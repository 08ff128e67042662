// Benchmark: each built page's first-load JavaScript against its budget (src/lib/product-rules/page-budgets.ts), in
// gzip (what the server sends) and brotli (what a CDN would), with the files it takes;
// tests/structure/page-budgets.test.ts uses the same measure.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { tsImport } from 'tsx/esm/api';

const root = path.resolve(import.meta.dirname, '..');

/** The built site: SITE_DIR when set (as the server and scripts/build-site.mjs read it), else dist/. */
export function siteDir() {
  return path.resolve(root, process.env.SITE_DIR || 'dist');
}

function* htmlFiles(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* htmlFiles(full);
    else if (name.endsWith('.html')) yield full;
  }
}

/**
 * Script URLs a page loads before any interaction: module scripts, modulepreloads, and every island's component and
 * renderer (load, idle and visible islands all hydrate without a click). Dynamic import() targets are left out: they
 * load on demand, as the modal host does when a modal opens.
 */
export function entryScripts(html) {
  const urls = new Set();
  for (const re of [
    /<script[^>]*\ssrc="([^"]+)"/g,
    /component-url="([^"]+)"/g,
    /renderer-url="([^"]+)"/g,
    /<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g,
  ]) {
    for (const match of html.matchAll(re)) urls.add(match[1]);
  }
  return [...urls].filter((u) => u.startsWith('/'));
}

/**
 * Follows static imports (`import … from "./x.js"`, `import "./x.js"`, `export … from`) to every chunk a page pulls in.
 */
export function closure(dist, entries) {
  const seen = new Set();
  const queue = [...entries];
  while (queue.length > 0) {
    const url = queue.pop();
    if (seen.has(url)) continue;
    const file = path.join(dist, url);
    if (!existsSync(file)) continue;
    seen.add(url);
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(/(?:import|from)\s*["']([^"']+\.js)["']/g)) {
      queue.push(path.posix.join(path.posix.dirname(url), match[1]));
    }
  }
  return [...seen].sort();
}

function inlineScripts(html) {
  return [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((m) => Buffer.from(m[1]))
    .filter((b) => b.length > 0);
}

const sum = (list, size) => list.reduce((total, bytes) => total + size(bytes), 0);

/**
 * One page's first-load JavaScript: the files, and gzip and brotli bytes summed file by file (inline scripts included).
 */
export function firstLoad(dist, htmlFile) {
  const html = readFileSync(htmlFile, 'utf8');
  const files = closure(dist, entryScripts(html));
  const bodies = [...files.map((u) => readFileSync(path.join(dist, u))), ...inlineScripts(html)];
  const route =
    '/' +
    path
      .relative(dist, htmlFile)
      .replace(/index\.html$/, '')
      .replace(/\.html$/, '')
      .replace(/\/$/, '');
  return {
    route,
    html,
    files,
    rawBytes: sum(bodies, (b) => b.length),
    gzipBytes: sum(bodies, (b) => gzipSync(b).length),
    brotliBytes: sum(bodies, (b) => brotliCompressSync(b).length),
  };
}

/** Every page of the built site with its first-load figures, sorted by route. */
export function pageLoads(dist = siteDir()) {
  if (!existsSync(dist)) throw new Error(`${dist} is missing: run \`npm run build\` first`);
  return [...htmlFiles(dist)].map((file) => firstLoad(dist, file)).sort((a, b) => a.route.localeCompare(b.route));
}

const kb = (bytes) => Number((bytes / 1024).toFixed(1));

/** The table `npm run bench` prints: one row per page (the reference pages folded into one row, their largest). */
export async function pageWeights(dist = siteDir()) {
  // The budgets are TypeScript in src/lib/product-rules; tsx loads them, as the other benchmarks load server code.
  const { PAGE_BUDGETS, pageKind } = await tsImport('../src/lib/product-rules/index.ts', import.meta.url);
  const loads = pageLoads(dist).map((l) => ({ ...l, budget: PAGE_BUDGETS[pageKind(l.route)] }));
  const operations = loads.filter((l) => l.route.startsWith('/api-reference/'));
  const largest = operations.reduce((a, b) => (b.gzipBytes > a.gzipBytes ? b : a), operations[0]);
  const shown = [
    ...loads.filter((l) => !l.route.startsWith('/api-reference/')),
    ...(largest
      ? [{ ...largest, route: `/api-reference/* (${operations.length}, largest: ${largest.route.slice(15)})` }]
      : []),
  ];
  return shown.map((l) => ({
    page: l.route,
    'html KB': kb(Buffer.byteLength(l.html)),
    'js files': l.files.length,
    'js KB raw': kb(l.rawBytes),
    'js KB gzip': kb(l.gzipBytes),
    'js KB brotli': kb(l.brotliBytes),
    'budget KB gzip': kb(l.budget),
    within: l.gzipBytes <= l.budget ? 'yes' : 'NO',
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await pageWeights());
