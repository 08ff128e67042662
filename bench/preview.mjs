// Preview engine benchmark: runs bench/preview-bench.ts under tsx and returns its rows (seconds of video per second).
import { runTsxBench } from './tsx-bench.mjs';

export const previewBenchmarks = () => runTsxBench('preview-bench.ts', 'preview benchmark');
