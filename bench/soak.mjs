// Soak bench: runs bench/soak-bench.ts under tsx (the server and its test support are TypeScript) and returns its rows.
import { runTsxBench } from './tsx-bench.mjs';

export const soak = () => runTsxBench('soak-bench.ts', 'soak benchmark');

if (import.meta.url === `file://${process.argv[1]}`) console.table(soak());
