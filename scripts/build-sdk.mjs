// Builds the SDK package in src/lib/sdk: one ES module bundle and its type declarations under dist/; with --pack <dir>,
// also packs it (npm pack) into <dir> as dreamapi-platform-sdk.tgz, the file the site serves under /sdk/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { writeSdkDeclarations } from './sdk-declarations.mjs';

const root = path.resolve(import.meta.dirname, '..');
const sdkDir = path.join(root, 'src/lib/sdk');
const outDir = path.join(sdkDir, 'dist');

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? '');
    throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
  }
  return result.stdout;
}

/**
 * Declarations keep the sources' extensionless relative imports, which Node's own resolution (moduleResolution node16
 * and nodenext) refuses: each becomes the file it names, `./x.js` or `./x/index.js`.
 */
function addExtensions(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) addExtensions(file);
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
    const text = readFileSync(file, 'utf8').replace(
      /(from |import\()(['"])(\.{1,2}\/[^'"]*)\2/g,
      (whole, lead, quote, spec) => {
        const base = path.resolve(dir, spec);
        if (existsSync(`${base}.d.ts`)) return `${lead}${quote}${spec}.js${quote}`;
        if (existsSync(path.join(base, 'index.d.ts'))) return `${lead}${quote}${spec}/index.js${quote}`;
        return whole;
      },
    );
    writeFileSync(file, text);
  }
}

/** The bundle and declarations; neutral platform, so nothing of Node (or of the site) can slip into the package. */
export async function buildSdk() {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: [path.join(sdkDir, 'index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    outfile: path.join(outDir, 'index.js'),
    legalComments: 'none',
    logLevel: 'warning',
  });
  run(
    process.execPath,
    [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(sdkDir, 'tsconfig.build.json')],
    root,
  );
  writeSdkDeclarations(sdkDir, path.join(outDir, 'types'));
  addExtensions(path.join(outDir, 'types'));
}

/** npm pack of the built package into `destination`, under a name without the version (the link View code shows). */
export function packSdk(destination) {
  mkdirSync(destination, { recursive: true });
  // The package's prepack would build again; it is built already.
  const [packed] = JSON.parse(
    run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], sdkDir),
  );
  const stable = path.join(destination, 'dreamapi-platform-sdk.tgz');
  renameSync(path.join(destination, packed.filename), stable);
  return stable;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildSdk();
  const at = process.argv.indexOf('--pack');
  const { version } = JSON.parse(readFileSync(path.join(sdkDir, 'package.json'), 'utf8'));
  if (at > 0) console.log(`SDK ${version} packed: ${packSdk(path.resolve(process.argv[at + 1] ?? '.'))}`);
  else console.log(`SDK ${version} built into ${path.relative(root, outDir)}/`);
}
