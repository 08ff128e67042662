// Cluster-wide engine slots on PostgreSQL: a fallback engine's cap holds across two workers and two slot sets, and a
// killed holder's lease runs out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import type { Engine } from '../engines';
import { createLogger } from '../log';
import { createTaskSystem, type TaskSystem } from '.';
import { leasedEngineSlots } from './engine-slots';
import { createUser, TASKS_TEST_SECRET, testEngine, waitForTask } from '../test-support/tasks';
import { postgresSkipReason } from '../test-support/instances';
import { PG_BOSS_TEST_ENV } from '../test-support/pg-boss-systems';
import { freshPostgresDatabase } from '../db/test-support/engines';

const adminUrl = process.env.TEST_DATABASE_URL;

const skipReason = await postgresSkipReason(adminUrl);
if (skipReason) console.warn(`engine slot tests skipped: ${skipReason}`);

const dir = mkdtempSync(path.join(tmpdir(), 'engine-slots-'));
let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
let dbUrl = '';

describe.skipIf(skipReason !== null)('cluster-wide engine slots (PostgreSQL)', () => {
  beforeAll(async () => {
    fresh = await freshPostgresDatabase(adminUrl!, 'slots');
    dbUrl = fresh.url;
    const database = await openDatabase(dbUrl);
    await migrateToLatest(database);
    await database.close();
  });
  afterAll(async () => {
    if (fresh) {
      await fresh.drop();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('a fallback engine with cap 1 runs one task at a time across two workers, and every task finishes', async () => {
    let active = 0;
    let most = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const inner = testEngine({ name: 'slow', gate, delayMs: 150 });
    // Counts runs inside the fallback engine itself, shared by both workers of this test process.
    const slow: Engine = {
      ...inner,
      async run(feature, input, ctx) {
        active++;
        most = Math.max(most, active);
        try {
          return await inner.run(feature, input, ctx);
        } finally {
          active--;
        }
      },
    };
    const boom = testEngine({ name: 'boom', fail: 'always down' });
    const env = {
      LOG_LEVEL: 'silent',
      DATA_DIR: dir,
      SECRET_KEY: TASKS_TEST_SECRET,
      PUBLIC_URL: 'http://localhost:8787',
      DATABASE_URL: dbUrl,
      ROLE: 'worker',
      ...PG_BOSS_TEST_ENV,
      TASK_WORKERS: '4',
      ENGINES: 'tts-common=boom|slow',
      ENGINE_CONCURRENCY: 'boom=4,slow=1',
    };
    const open: { system: TaskSystem; database: AppDatabase }[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const database = await openDatabase(dbUrl);
        const system = createTaskSystem({
          config: loadConfig(env),
          database,
          log: createLogger('silent'),
          extraEngines: [boom, slow],
        });
        open.push({ system, database });
        await system.start();
      }
      const first = open[0]!;
      const user = await createUser({ database: first.database, config: first.system.config }, 100);
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const { task } = await first.system.tasks.submit({
          userId: user.id,
          feature: 'tts-common',
          input: { text: `slot ${i}`, voice: 'en-us-male-1' },
          source: 'api',
        });
        ids.push(task.id);
      }
      // Both workers have had time to take jobs and reach the fallback before the first run is let through.
      await new Promise((r) => setTimeout(r, 2500));
      release();
      for (const id of ids) {
        const done = await waitForTask(first, id, 60_000);
        expect(done.status).toBe('succeeded');
        expect(done.engine).toBe('slow');
      }
      expect(most).toBe(1);
    } finally {
      release();
      for (const { system, database } of open.reverse()) {
        await system.stop();
        await database.close();
      }
    }
  }, 90_000);

  it('holds a cap across two slot sets: never more holders than slots, and every waiter gets one in the end', async () => {
    const database = await openDatabase(dbUrl);
    const sets = [
      leasedEngineSlots({ db: database.db, pollMs: 20 }),
      leasedEngineSlots({ db: database.db, pollMs: 20 }),
    ];
    let holding = 0;
    let most = 0;
    let rowsSeen = 0;
    try {
      // 24 runs compete for 3 slots of one engine, half through each set, as two worker processes would.
      await Promise.all(
        Array.from({ length: 24 }, async (_, i) => {
          const release = await sets[i % 2]!.acquire('capped', 3, AbortSignal.timeout(30_000));
          holding++;
          most = Math.max(most, holding);
          const { rows } = await sql<{
            n: number;
          }>`select count(*)::int as n from engine_slots where engine = 'capped'`.execute(database.db);
          rowsSeen = Math.max(rowsSeen, rows[0]!.n);
          await new Promise((r) => setTimeout(r, 20));
          holding--;
          release();
        }),
      );
      // Never more than the cap, yet more than one at a time: the sets share the slots rather than taking turns.
      expect(most).toBeLessThanOrEqual(3);
      expect(most).toBeGreaterThan(1);
      expect(rowsSeen).toBeLessThanOrEqual(3);
    } finally {
      for (const set of sets) await set.close();
      await database.close();
    }
  }, 60_000);

  it("a killed worker's slot frees when its lease runs out, and not before while it renews", async () => {
    // A real process takes the only slot with a 1 s lease renewed every 0.25 s, then is killed with SIGKILL.
    const script = `
      import { openDatabase } from ${JSON.stringify(new URL('../db/index.ts', import.meta.url).href)};
      import { leasedEngineSlots } from ${JSON.stringify(new URL('./engine-slots.ts', import.meta.url).href)};
      const database = await openDatabase(process.env.SLOTS_DB);
      const slots = leasedEngineSlots({ db: database.db, leaseS: 1, renewS: 0.25 });
      await slots.acquire('solo', 1, AbortSignal.timeout(5000));
      process.stdout.write('held\\n');
      setInterval(() => undefined, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, SLOTS_DB: dbUrl },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const database = await openDatabase(dbUrl);
    const other = leasedEngineSlots({ db: database.db, pollMs: 50 });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
        child.on('exit', (code) => reject(new Error(`slot holder exited early with ${code}`)));
      });
      // Three leases long: only renewal keeps it from the other set.
      await expect(other.acquire('solo', 1, AbortSignal.timeout(3000))).rejects.toThrow();
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from engine_slots where engine = 'solo'`.execute(database.db);
      expect(rows[0]!.n).toBe(1);
      // Nobody released it: the lease runs out and the other set takes the slot.
      const release = await other.acquire('solo', 1, AbortSignal.timeout(10_000));
      release();
    } finally {
      child.kill('SIGKILL');
      await other.close();
      await database.close();
    }
  }, 30_000);

  it('holds no database connection while a slot is held', async () => {
    // One connection in the pool: were a held slot to pin it, the second take (and every query after) would wait
    // forever.
    const database = await openDatabase(dbUrl, { maxConnections: 1 });
    const slots = leasedEngineSlots({ db: database.db });
    try {
      const releases: (() => void)[] = [];
      for (let i = 0; i < 4; i++) releases.push(await slots.acquire('idle', 4, AbortSignal.timeout(5000)));
      const { rows: held } = await sql<{
        n: number;
      }>`select count(*)::int as n from engine_slots where engine = 'idle'`.execute(database.db);
      expect(held[0]!.n).toBe(4);
      for (const release of releases) release();
      await slots.close();
      const { rows: after } = await sql<{
        n: number;
      }>`select count(*)::int as n from engine_slots where engine = 'idle'`.execute(database.db);
      expect(after[0]!.n).toBe(0);
    } finally {
      await slots.close();
      await database.close();
    }
  }, 30_000);
});
