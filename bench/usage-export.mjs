// Usage export benchmark: runs bench/usage-export-bench.ts under tsx (with the GC exposed) and returns its rows.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export function usageExportMemory() {
  const root = path.resolve(import.meta.dirname, '..');
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', path.join(root, 'bench/usage-export-bench.ts')],
    { cwd: root, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`usage export benchmark failed:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}
