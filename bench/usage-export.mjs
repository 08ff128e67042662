// Usage export benchmark: runs bench/usage-export-bench.ts under tsx (with the GC exposed) and returns its rows.
import { runTsxBench } from './tsx-bench.mjs';

export const usageExportMemory = () =>
  runTsxBench('usage-export-bench.ts', 'usage export benchmark', { nodeOptions: ['--expose-gc'] });
