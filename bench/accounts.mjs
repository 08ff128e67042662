// Benchmark: login and /user/info throughput over loopback (runs bench/accounts-bench.ts under tsx, reads its JSON).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

export function accountThroughput() {
  const run = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'bench/accounts-bench.ts')],
    {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (run.status !== 0) throw new Error(`accounts bench failed with exit code ${run.status}`);
  return JSON.parse(run.stdout);
}
