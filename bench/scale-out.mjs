// Scale-out benchmark: runs bench/scale-out-bench.ts under tsx (the server is TypeScript) and returns its rows.
import { runTsxBench } from './tsx-bench.mjs';

export const scaleOutBenchmarks = () =>
  runTsxBench('scale-out-bench.ts', 'scale-out benchmark', { showStderr: true, timeoutMs: 180_000 });

if (import.meta.url === `file://${process.argv[1]}`) console.table(scaleOutBenchmarks());
