// `npm run bench`: builds the site if stale, runs every benchmark and prints its figures as tables.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { lighthouseScores } from './lighthouse.mjs';
import { pageWeights } from './page-weight.mjs';
import { accountThroughput } from './accounts.mjs';
import { apiThroughput } from './api-throughput.mjs';
import { taskBenchmarks } from './tasks.mjs';
import { scaleOutBenchmarks } from './scale-out.mjs';
import { liveStatusLatency } from './live-status.mjs';
import { capacity } from './capacity.mjs';
import { playgroundScores } from './playground.mjs';
import { previewBenchmarks } from './preview.mjs';
import { speechBenchmarks } from './speech.mjs';
import { opsOverhead } from './ops.mjs';
import { uploadMemory } from './uploads.mjs';
import { soak } from './soak.mjs';
import { processStart } from './start.mjs';
import { usageExportMemory } from './usage-export.mjs';
import { browserFigures, collectorIngest, outageDrain, stubSize } from './tracking.mjs';
import { collectorIngestPostgres } from './tracking-ingest-pg.mjs';

const root = path.resolve(import.meta.dirname, '..');
const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-site.mjs'), '--if-stale'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

// Each benchmark returns rows (or a promise of rows) for one table.
const benchmarks = [
  {
    name: 'Page weight: first-load JS per page vs its budget (src/lib/product-rules/page-budgets.ts, gzip file by file)',
    run: async () => pageWeights(),
  },
  {
    name: 'Lighthouse, mobile, static pages (goals: performance ≥ 98, TBT ≤ 150 ms, CLS 0; median of 3 runs)',
    run: () => lighthouseScores(),
  },
  {
    name: 'Playground screens, Lighthouse mobile, all ten (goals: performance ≥ 95, TBT ≤ 150 ms, CLS 0; median of 3 runs)',
    run: playgroundScores,
  },
  { name: 'Tracking stub size (main thread, gzip; target ≤ 3 KB)', run: async () => stubSize() },
  { name: 'Tracking in Chromium (report() cost, worker throughput)', run: browserFigures },
  { name: 'Tracking after a network outage (Chromium offline, then online)', run: outageDrain },
  { name: 'Tracking collector ingest (autocannon, loopback)', run: collectorIngest },
  {
    name: 'Tracking collector ingest on PostgreSQL (autocannon, loopback; partitioned table, unnest inserts) beside a bare node:http + pg handler (goal ≥ 20k events/s)',
    run: () => collectorIngestPostgres(path.resolve(root, process.env.SITE_DIR || 'dist')),
  },
  { name: 'Accounts: login and /user/info throughput (autocannon, loopback)', run: async () => accountThroughput() },
  {
    name: 'API throughput: user info, getAsyncResult, playground poll vs bare node:http + better-sqlite3 (goal ≥ 0.5×)',
    run: apiThroughput,
  },
  { name: 'Tasks: submit throughput, queue overhead', run: async () => taskBenchmarks() },
  {
    name: 'Offline speech (eSpeak NG thread pool) with the machine busy, next to a thread per call',
    run: async () => speechBenchmarks(),
  },
  {
    name: 'Scale-out: tasks/s through 1 and 2 workers, submit → start latency (pg-boss on PostgreSQL, in-process on SQLite)',
    run: async () => scaleOutBenchmarks(),
  },
  {
    name: 'Live status: status change → event received, p50/p99, submitted through one api instance and streamed from another (SSE over PostgreSQL NOTIFY and over Redis pub/sub), beside a 1 s poll of getAsyncResult',
    run: async () => liveStatusLatency(),
  },
  {
    name: 'Capacity through HTTP: 28 tasks/s (100k an hour) via 2 api instances to 2 workers of the built server for 5 minutes, fixed-time engine; rate held, latency, PostgreSQL connections, RSS',
    run: async () => capacity(),
  },
  {
    name: 'Preview engine (ffmpeg, no AI model): seconds of video rendered per second',
    run: async () => previewBenchmarks(),
  },
  {
    name: 'Upload memory: server RSS for 1, 4, 12 uploads of ~100 MB at once and one with S3 (via the server; straight to the bucket), beside bare node:http',
    run: async () => uploadMemory(),
  },
  {
    name: 'Usage export: a year of one account (100k tasks, 100k ledger rows) as CSV, streamed in keyset pages vs the whole range at once; rows/s and peak live heap',
    run: async () => usageExportMemory(),
  },
  {
    name: 'Soak: 10 minutes of mixed load (sign-in, submit, poll, collector, bad requests); server RSS and heap at start, after warm-up, each minute and at the end',
    run: async () => soak(),
  },
  {
    name: 'Process start: spawn → listening on a fresh data dir, built server and under tsx, beside a bare node:http',
    run: () => processStart(),
  },
  {
    name: 'Operability overhead per request: metrics and request id, and a span with tracing on (in-process, next to none)',
    run: async () => opsOverhead(),
  },
];
// `npm run bench -- <words>` runs only the tables whose name contains one of the words (case-insensitive).
const filters = process.argv.slice(2).map((word) => word.toLowerCase());
const chosen =
  filters.length === 0
    ? benchmarks
    : benchmarks.filter((bench) => filters.some((word) => bench.name.toLowerCase().includes(word)));
for (const bench of chosen) {
  console.log(`\n## ${bench.name}`);
  console.table(await bench.run());
}
