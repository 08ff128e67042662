// Operability overhead: runs bench/ops-bench.ts under tsx (the middleware is TypeScript) and returns its rows.
import { runTsxBench } from './tsx-bench.mjs';

export const opsOverhead = () => runTsxBench('ops-bench.ts', 'ops benchmark');

if (import.meta.url === `file://${process.argv[1]}`) console.table(opsOverhead());
