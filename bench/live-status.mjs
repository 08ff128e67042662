// Live status benchmark: runs bench/live-status-bench.ts under tsx (the server is TypeScript) and returns its rows.
import { runTsxBench } from './tsx-bench.mjs';

export const liveStatusLatency = () =>
  runTsxBench('live-status-bench.ts', 'live status benchmark', { showStderr: true, timeoutMs: 300_000 });

if (import.meta.url === `file://${process.argv[1]}`) console.table(liveStatusLatency());
