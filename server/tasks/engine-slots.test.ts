// Cluster-wide engine slots on PostgreSQL: a fallback engine's cap holds across two workers, and a dropped connection frees its slot.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import type { Engine } from '../engines';
import { createLogger } from '../log';
import { TASK_QUEUE } from '../../src/lib/spec';
import { createTaskSystem, type TaskSystem } from '.';
import { advisoryEngineSlots } from './engine-slots';
import { createUser, TASKS_TEST_SECRET, testEngine, waitForTask } from '../test-support/tasks';
import { postgresSkipReason } from '../test-support/instances';
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
      LOG_LEVEL: 'silent', DATA_DIR: dir, SECRET_KEY: TASKS_TEST_SECRET, PUBLIC_URL: 'http://localhost:8787', DATABASE_URL: dbUrl, ROLE: 'worker',
      QUEUE: 'pg-boss', QUEUE_LEASE_S: '10', QUEUE_CHECK_S: '1', QUEUE_RETRY_DELAY_S: '1', TASK_POLL_MS: '500', TASK_WORKERS: '4',
      ENGINES: 'tts-common=boom|slow', ENGINE_CONCURRENCY: 'boom=4,slow=1',
    };
    const open: { system: TaskSystem; database: AppDatabase }[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const database = await openDatabase(dbUrl);
        const system = createTaskSystem({ config: loadConfig(env), database, log: createLogger('silent'), extraEngines: [boom, slow] });
        open.push({ system, database });
        await system.start();
      }
      const first = open[0]!;
      const user = await createUser({ database: first.database, config: first.system.config }, 100);
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const { task } = await first.system.tasks.submit({ userId: user.id, feature: 'tts-common', input: { text: `slot ${i}`, voice: 'en-us-male-1' }, source: 'api' });
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

  it('a slot held by a connection that dropped is free again', async () => {
    const killed = advisoryEngineSlots({ connectionString: dbUrl, connections: 1 });
    const other = advisoryEngineSlots({ connectionString: dbUrl, connections: 1, pollMs: 50 });
    const admin = new pg.Client({ connectionString: dbUrl });
    await admin.connect();
    try {
      await killed.acquire('solo', 1, AbortSignal.timeout(5000));
      // Taken: the other process cannot have it while the holder's connection lives.
      await expect(other.acquire('solo', 1, AbortSignal.timeout(600))).rejects.toThrow();
      // The worker dies: its session ends on the server, as when the process is killed.
      const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_locks where locktype = $1 and classid = $2 and granted and pid <> pg_backend_pid()', [
        'advisory',
        TASK_QUEUE.engineSlotLockClass,
      ]);
      expect(rowCount).toBe(1);
      const releaseOther = await other.acquire('solo', 1, AbortSignal.timeout(5000));
      releaseOther();
    } finally {
      await admin.end();
      await killed.close();
      await other.close();
    }
  }, 30_000);
});
