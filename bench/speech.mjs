// Speech benchmark: runs bench/speech-bench.ts under tsx (the engine is TypeScript) and returns its rows.
import { runTsxBench } from './tsx-bench.mjs';

export const speechBenchmarks = () => runTsxBench('speech-bench.ts', 'speech benchmark');

if (import.meta.url === `file://${process.argv[1]}`) console.table(speechBenchmarks());
