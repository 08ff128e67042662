// Upload memory bench: runs bench/uploads-bench.ts under tsx (the server is TypeScript) and returns its rows.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export function uploadMemory() {
  const root = path.resolve(import.meta.dirname, '..');
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/uploads-bench.ts')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`upload benchmark failed:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}
