// Upload memory bench: runs bench/uploads-bench.ts under tsx (the server is TypeScript) and returns its rows.
import { runTsxBench } from './tsx-bench.mjs';

export const uploadMemory = () => runTsxBench('uploads-bench.ts', 'upload benchmark');
