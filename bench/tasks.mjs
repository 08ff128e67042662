// Task benchmarks: runs bench/tasks-bench.ts under tsx (the server is TypeScript) and returns its rows.
import { runTsxBench } from './tsx-bench.mjs';

export const taskBenchmarks = () => runTsxBench('tasks-bench.ts', 'task benchmark');
