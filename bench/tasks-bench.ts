// Task benchmarks (run by bench/tasks.mjs under tsx): submit throughput and queue overhead; prints JSON rows (speech:
// bench/speech-bench.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../server/app';
import { loadConfig } from '../server/config';
import { migrateToLatest, openDatabase } from '../server/db';
import { createLogger } from '../server/log';
import { createTaskSystem } from '../server/tasks';
import { createUser, TASKS_TEST_SECRET, testEngine, waitForTask } from '../server/test-support/tasks';

const dir = mkdtempSync(path.join(tmpdir(), 'tasks-bench-'));
const config = loadConfig({
  LOG_LEVEL: 'silent',
  DATA_DIR: dir,
  SECRET_KEY: TASKS_TEST_SECRET,
  ENGINES: 'tts-common=noop',
  TASK_USER_CONCURRENCY: '100000',
  RATE_LIMIT_PER_MINUTE: '1000000',
  TASK_POLL_MS: '1000',
});
const database = await openDatabase(config.databaseUrl);
await migrateToLatest(database);
const log = createLogger('silent');
const system = createTaskSystem({ config, database, log, extraEngines: [testEngine({ name: 'noop' })] });
const app = createApp({ config, database, log, tasks: system });
const user = await createUser({ database, config }, 1_000_000);
const rows: Array<Record<string, string | number>> = [];

// 1. Submit throughput over the public API (auth, validation, credit hold, insert), 20 requests in flight.
const total = 1000;
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: 20 }, async () => {
    while (next < total) {
      next++;
      const res = await app.request('/api/async/do_tts_common', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.apiKey}` },
        body: JSON.stringify({ text: `Benchmark request ${next}` }),
      });
      if (res.status !== 200) throw new Error(`submit failed: ${res.status}`);
    }
  }),
);
const submitS = (performance.now() - started) / 1000;
rows.push({
  figure: 'submit throughput (SQLite file, 20 in flight)',
  value: Math.round(total / submitS),
  unit: 'tasks/s accepted',
});

// 2. Queue overhead: submit → done for a trivial engine, one task at a time so no task waits behind another.
await database.db.updateTable('tasks').set({ status: 'canceled' }).where('status', '=', 'queued').execute();
await system.queue.start();
const overheads: number[] = [];
for (let i = 0; i < 200; i++) {
  const { task } = await system.tasks.submit({
    userId: user.id,
    feature: 'tts-common',
    input: { text: 'x', voice: 'en-us-male-1' },
    source: 'api',
  });
  // Measured on the task's own timestamps (created → finished), so the waiting loop's polling is not counted.
  const done = await waitForTask({ database }, task.id);
  overheads.push(done.finished_at! - done.created_at);
}
await system.stop();
overheads.sort((a, b) => a - b);
const pct = (p: number) => overheads[Math.min(overheads.length - 1, Math.floor((p / 100) * overheads.length))]!;
rows.push({ figure: 'queue overhead submit → done, median', value: pct(50), unit: 'ms' });
rows.push({ figure: 'queue overhead submit → done, p99', value: pct(99), unit: 'ms' });

await database.close();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify(rows)}\n`);
