// Builds the static site with Astro; with --if-stale, only when its sources or PUBLIC_* settings changed.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSdk, packSdk } from './build-sdk.mjs';

const root = path.resolve(import.meta.dirname, '..');
// SITE_DIR lets parallel test runs build into their own folders; the server reads the same variable.
const outDir = path.resolve(root, process.env.SITE_DIR || 'dist');
const stampFile = path.join(outDir, '.build-hash');
// The reference pages' OpenAPI document comes from src/lib/api-contract, so src covers it.
const inputs = ['src', 'public', 'astro.config.mjs', 'package-lock.json', 'tsconfig.json'];

/** Built output inside src (the SDK package's), not a source of the site. */
const notSources = new Set([path.join('src', 'lib', 'sdk', 'dist')]);

function* filesUnder(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full) || notSources.has(entry)) return;
  if (statSync(full).isFile()) {
    yield entry;
    return;
  }
  for (const name of readdirSync(full).sort()) yield* filesUnder(path.join(entry, name));
}

/** A hash of every input file and build-time setting: the site is stale when it changes. */
function sourceHash() {
  const hash = createHash('sha256');
  for (const entry of inputs) {
    for (const file of filesUnder(entry)) {
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(path.join(root, file)))
        .update('\0');
    }
  }
  for (const [name, value] of Object.entries(process.env)
    .filter(([k]) => k.startsWith('PUBLIC_'))
    .sort()) {
    hash.update(`${name}=${value}\0`);
  }
  return hash.digest('hex');
}

const wanted = sourceHash();
if (process.argv.includes('--if-stale') && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === wanted) {
  console.log('Site is up to date (dist/).');
  process.exit(0);
}
console.log('Building the site…');
// Always a production build: a caller's NODE_ENV (vitest sets 'test') would otherwise ship React's development build.
const env = { ...process.env, NODE_ENV: 'production' };
const result = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', outDir],
  { cwd: root, stdio: 'inherit', env },
);
if (result.status !== 0) process.exit(result.status ?? 1);
// The SDK package, served as /sdk/dreamapi-platform-sdk.tgz: View code's JavaScript installs it from here.
await buildSdk();
packSdk(path.join(outDir, 'sdk'));
writeFileSync(stampFile, wanted);
