// Capacity bench: runs bench/capacity-bench.ts under tsx (the server's test support is TypeScript) and returns its
// rows.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export function capacity() {
  const root = path.resolve(import.meta.dirname, '..');
  const seconds = Number(process.env.CAPACITY_SECONDS ?? 300) + Number(process.env.CAPACITY_BASELINE_SECONDS ?? 60);
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/capacity-bench.ts')], {
    cwd: root,
    encoding: 'utf8',
    // Both loads, up to two minutes of drain after each, the idle windows, and the processes' start and stop on a busy
    // machine.
    timeout: (seconds + 900) * 1000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.stderr) process.stderr.write(run.stderr);
  if (run.status !== 0) throw new Error(`capacity benchmark failed (${run.status ?? run.signal})`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(capacity());
