// Scale-out benchmark: runs bench/scale-out-bench.ts under tsx (the server is TypeScript) and returns its rows.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export function scaleOutBenchmarks() {
  const root = path.resolve(import.meta.dirname, '..');
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/scale-out-bench.ts')], {
    cwd: root,
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (run.stderr) process.stderr.write(run.stderr);
  if (run.status !== 0) throw new Error(`scale-out benchmark failed (${run.status ?? run.signal})`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(scaleOutBenchmarks());
