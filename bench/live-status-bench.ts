// Live status benchmark (run by bench/live-status.mjs under tsx): status change → event received across two api
// instances, next to a 1 s poll; prints JSON rows.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../server/app';
import { loadConfig } from '../server/config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../server/db';
import { freshPostgresDatabase } from '../server/db/test-support/engines';
import type { Engine } from '../server/engines';
import { createLogger } from '../server/log';
import { createTaskSystem, type TaskSystem } from '../server/tasks';
import { listen, type Listening } from '../server/test-support/listen';
import { createUser, TASKS_TEST_SECRET, type TestUser } from '../server/test-support/tasks';
import { silentWav } from '../server/test-support/wav';
import { readEvents } from '../src/lib/sdk/sse';
import { LIVE_STATUS } from '../src/lib/product-rules';
import { clearRedisPrefix, PG_ADMIN_URL, REDIS_URL } from '../tests/cluster/services';

/** Tasks submitted one every SUBMIT_GAP_MS; each reports STEPS progress changes STEP_MS apart, then succeeds. */
const TASKS = 30;
const SUBMIT_GAP_MS = 300;
const STEPS = [20, 40, 60, 80];
const STEP_MS = 250;
const POLL_MS = LIVE_STATUS.pollFallbackMs;
const log = createLogger('silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * When each change was made: `${taskId}:${progress}` → epoch ms just before the engine reported it (100: the finish).
 */
const changedAt = new Map<string, number>();

/** Reports each step, waiting between them; the time of each report is the change's start. */
const engine: Engine = {
  name: 'steps',
  features: ['tts-common'],
  async run(_feature, _input, ctx) {
    for (const p of STEPS) {
      changedAt.set(`${ctx.taskId}:${p}`, Date.now());
      await ctx.progress(p);
      await sleep(STEP_MS);
    }
    changedAt.set(`${ctx.taskId}:100`, Date.now());
    return { outputs: [{ kind: 'audio', mime: 'audio/wav', data: silentWav(0.1, 8000), durationS: 0.1 }] };
  },
};

interface Instance {
  system: TaskSystem;
  database: AppDatabase;
  server: Listening;
  url: string;
}

async function instance(env: Record<string, string>): Promise<Instance> {
  const config = loadConfig(env);
  const database = await openDatabase(env.DATABASE_URL!);
  const system = createTaskSystem({ config, database, log, extraEngines: [engine] });
  await system.start();
  const server = await listen(createApp({ config, database, log, tasks: system }).fetch);
  return { system, database, server, url: `http://127.0.0.1:${server.port}` };
}

/** Records, per change, when a client first knew of it: a view showing that progress or later. */
function learner(label: string) {
  const known = new Map<string, number>();
  return {
    label,
    saw(taskId: string, progress: number, at = Date.now()) {
      for (const p of [...STEPS, 100])
        if (p <= progress && !known.has(`${taskId}:${p}`)) known.set(`${taskId}:${p}`, at);
    },
    row() {
      const lags = [...known].filter(([key]) => changedAt.has(key)).map(([key, at]) => at - changedAt.get(key)!);
      lags.sort((a, b) => a - b);
      return {
        client: label,
        changes: lags.length,
        'p50 ms': Math.round(pct(lags, 50)),
        'p99 ms': Math.round(pct(lags, 99)),
      };
    },
  };
}

async function run(transport: 'postgres' | 'redis') {
  changedAt.clear();
  const fresh = await freshPostgresDatabase(PG_ADMIN_URL, 'live_bench');
  const prefix = `live-bench-${randomBytes(4).toString('hex')}:`;
  const dir = mkdtempSync(path.join(tmpdir(), 'live-status-bench-'));
  const env = {
    LOG_LEVEL: 'silent',
    DATA_DIR: dir,
    SECRET_KEY: TASKS_TEST_SECRET,
    DATABASE_URL: fresh.url,
    ENGINES: 'tts-common=steps',
    TASK_POLL_MS: '50',
    TASK_USER_CONCURRENCY: '1000',
    RATE_LIMIT_PER_MINUTE: '10000000',
    ...(transport === 'redis' ? { REDIS_URL, REDIS_PREFIX: prefix } : {}),
  };
  const instances: Instance[] = [];
  try {
    const migrated = await openDatabase(env.DATABASE_URL);
    await migrateToLatest(migrated);
    const user: TestUser = await createUser({ database: migrated, config: loadConfig(env) }, 100_000);
    await migrated.close();
    // A runs the tasks (and takes the submits); B only serves requests: the stream and the polls go to B.
    instances.push(await instance(env), await instance({ ...env, ROLE: 'api' }));
    const [a, b] = instances as [Instance, Instance];
    const auth = { authorization: `Bearer ${user.apiKey}` };

    const streamed = learner(transport === 'postgres' ? 'SSE via PostgreSQL NOTIFY' : 'SSE via Redis pub/sub');
    const polled = learner(`poll getAsyncResult every ${POLL_MS / 1000} s`);
    const stop = new AbortController();
    const res = await fetch(`${b.url}${LIVE_STATUS.publicPath}`, { headers: auth, signal: stop.signal });
    const reading = (async () => {
      for await (const e of readEvents(res.body!, stop.signal)) {
        if (e.event !== LIVE_STATUS.event) continue;
        const { task } = JSON.parse(e.data) as { task: { taskId: string; progress: number; statusName: string } };
        streamed.saw(task.taskId, task.statusName === 'succeeded' ? 100 : task.progress);
      }
    })().catch(() => undefined);

    const polls: Array<Promise<void>> = [];
    for (let i = 0; i < TASKS; i++) {
      const submit = await fetch(`${a.url}/api/async/do_tts_common`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"text":"bench"}',
      });
      const { data } = (await submit.json()) as { data: { taskId: string } };
      polls.push(
        (async () => {
          for (;;) {
            await sleep(POLL_MS);
            const answer = await fetch(`${b.url}/api/getAsyncResult`, {
              method: 'POST',
              headers: { ...auth, 'content-type': 'application/json' },
              body: JSON.stringify({ taskId: data.taskId }),
            });
            const { task } = ((await answer.json()) as { data: { task: { progress: number; status: number } } }).data;
            polled.saw(data.taskId, task.status === 3 ? 100 : task.progress);
            if (task.status >= 3) return;
          }
        })(),
      );
      await sleep(SUBMIT_GAP_MS);
    }
    await Promise.all(polls);
    await sleep(500);
    stop.abort();
    await reading;
    return [streamed.row(), polled.row()];
  } finally {
    for (const i of instances) {
      await i.server.close();
      await i.system.stop();
      await i.database.close();
    }
    await fresh.drop();
    if (transport === 'redis') await clearRedisPrefix(prefix);
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows = [...(await run('postgres')), ...(await run('redis'))];
console.log(JSON.stringify(rows));
process.exit(0);
