// Capacity bench: runs bench/capacity-bench.ts under tsx (the server's test support is TypeScript) and returns its
// rows.
import { runTsxBench } from './tsx-bench.mjs';

export function capacity() {
  const seconds = Number(process.env.CAPACITY_SECONDS ?? 300) + Number(process.env.CAPACITY_BASELINE_SECONDS ?? 60);
  // Both loads, up to two minutes of drain after each, the idle windows, and the processes' start and stop on a busy
  // machine.
  return runTsxBench('capacity-bench.ts', 'capacity benchmark', {
    showStderr: true,
    timeoutMs: (seconds + 900) * 1000,
  });
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(capacity());
