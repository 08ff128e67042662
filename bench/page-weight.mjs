// Benchmark: for each built page, the JavaScript it loads (raw and gzip bytes, transitively) and its HTML size.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');

function* htmlFiles(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* htmlFiles(full);
    else if (name.endsWith('.html')) yield full;
  }
}

/** Script URLs a page loads itself: module scripts, island components and their renderers. */
function entryScripts(html) {
  const urls = new Set();
  for (const re of [/<script[^>]*\ssrc="([^"]+)"/g, /component-url="([^"]+)"/g, /renderer-url="([^"]+)"/g, /<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g]) {
    for (const match of html.matchAll(re)) urls.add(match[1]);
  }
  return [...urls].filter((u) => u.startsWith('/'));
}

/** Follows static imports from a built chunk to every chunk it pulls in. */
function closure(entries) {
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
  return [...seen];
}

function inlineScriptBytes(html) {
  let total = 0;
  for (const match of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)) total += Buffer.byteLength(match[1]);
  return total;
}

export function pageWeights() {
  if (!existsSync(dist)) throw new Error('dist/ is missing: run `npm run build` first');
  const rows = [];
  for (const file of htmlFiles(dist)) {
    const html = readFileSync(file, 'utf8');
    const scripts = closure(entryScripts(html));
    const js = Buffer.concat(scripts.map((u) => readFileSync(path.join(dist, u))));
    const route = '/' + path.relative(dist, file).replace(/index\.html$/, '').replace(/\.html$/, '').replace(/\/$/, '');
    rows.push({
      page: route,
      'html bytes': Buffer.byteLength(html),
      'inline js bytes': inlineScriptBytes(html),
      'js files': scripts.length,
      'js bytes': js.length,
      'js gzip bytes': js.length ? gzipSync(js).length : 0,
    });
  }
  return rows.sort((a, b) => a.page.localeCompare(b.page));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(pageWeights());
