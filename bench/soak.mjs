// Soak bench: runs bench/soak-bench.ts under tsx (the server and its test support are TypeScript) and returns its rows.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export function soak() {
  const root = path.resolve(import.meta.dirname, '..');
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/soak-bench.ts')], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`soak benchmark failed:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(soak());
