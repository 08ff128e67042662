// Operability overhead: runs bench/ops-bench.ts under tsx (the middleware is TypeScript) and returns its rows.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export function opsOverhead() {
  const root = path.resolve(import.meta.dirname, '..');
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/ops-bench.ts')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`ops benchmark failed:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(opsOverhead());
