// Builds the API server into plain JavaScript (dist-server/main.mjs) that Node runs as it is: no TypeScript loader at
// run time. `npm start` and `npm run build` run it; `node scripts/build-server.mjs [outdir]` builds alone.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
export const SERVER_OUT = path.join(root, 'dist-server');

/**
 * Plain-JavaScript files the server starts by URL next to its own module (worker threads): copied beside the bundle.
 */
function sideFiles(dir = path.join(root, 'server')) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sideFiles(full);
    return entry.name.endsWith('.mjs') && !entry.name.includes('.test.') ? [full] : [];
  });
}

/**
 * One ES module for the server's own code (server/ and the src/lib modules it shares with the site); packages stay
 * imports of node_modules. Names are kept, so stack traces read like the source; the linked source map
 * (NODE_OPTIONS=--enable-source-maps) maps them to the TypeScript lines.
 */
export async function buildServer(outdir = SERVER_OUT) {
  // Written over in place, never emptied first: a server already running from here still finds its worker files.
  mkdirSync(outdir, { recursive: true });
  await build({
    // The collector's ingest thread is a module of its own (server/tracking/ingest-pool.ts starts it by URL).
    entryPoints: {
      main: path.join(root, 'server/main.ts'),
      'tracking-ingest': path.join(root, 'server/tracking/ingest-thread.ts'),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: 'linked',
    keepNames: true,
    logLevel: 'warning',
  });
  for (const file of sideFiles()) copyFileSync(file, path.join(outdir, path.basename(file)));
  return path.join(outdir, 'main.mjs');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const main = await buildServer(process.argv[2] ? path.resolve(process.argv[2]) : SERVER_OUT);
  process.stdout.write(`server built: ${path.relative(process.cwd(), main)}\n`);
}
