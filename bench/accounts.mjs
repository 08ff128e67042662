// Benchmark: login and /user/info throughput over loopback (runs bench/accounts-bench.ts under tsx, reads its JSON).
import { runTsxBench } from './tsx-bench.mjs';

export const accountThroughput = () => runTsxBench('accounts-bench.ts', 'accounts bench', { showStderr: true });
