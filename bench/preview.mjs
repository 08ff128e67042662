// Preview engine benchmark: runs bench/preview-bench.ts under tsx and returns its rows (seconds of video per second).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export function previewBenchmarks() {
  const root = path.resolve(import.meta.dirname, '..');
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/preview-bench.ts')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`preview benchmark failed:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}
