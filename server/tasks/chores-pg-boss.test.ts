// Chores with QUEUE=pg-boss on PostgreSQL: workers (not api processes) run the scheduler, two workers register each
// schedule once, and a chore's job runs on one worker only, in pages.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import { trackingEventRow as event } from '../test-support/tracking-events';
import type { Logger } from '../log';
import { CHORES, TASK_QUEUE } from '../../src/lib/product-rules';
import { createTaskSystem, type TaskSystem } from '.';
import type { pgBossQueue } from './pg-boss-queue';
import { TASKS_TEST_SECRET } from '../test-support/tasks';
import { postgresSkipReason } from '../test-support/instances';
import { freshPostgresDatabase } from '../db/test-support/engines';

const adminUrl = process.env.TEST_DATABASE_URL;
const skipReason = await postgresSkipReason(adminUrl);
if (skipReason) console.warn(`pg-boss chore tests skipped: ${skipReason}`);

const DAY_MS = 24 * 60 * 60 * 1000;
const dir = mkdtempSync(path.join(tmpdir(), 'chores-pg-boss-'));
let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
const open: { system: TaskSystem; database: AppDatabase }[] = [];

/** A logger that keeps the messages of one worker, so the test can tell which worker ran a chore. */
function recordingLog(lines: string[]): Logger {
  const keep = (msg: string) => void lines.push(msg);
  return { debug: keep, info: keep, warn: keep, error: keep };
}

async function instance(role: 'api' | 'worker', lines: string[]) {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dir,
    SECRET_KEY: TASKS_TEST_SECRET,
    PUBLIC_URL: 'http://localhost:8787',
    DATABASE_URL: fresh!.url,
    ROLE: role,
    QUEUE: 'pg-boss',
    QUEUE_LEASE_S: '10',
    QUEUE_CHECK_S: '1',
    QUEUE_RETRY_DELAY_S: '1',
    TASK_POLL_MS: '200',
    TRACKING_RETENTION_DAYS: '30',
  });
  const database = await openDatabase(fresh!.url);
  const system = createTaskSystem({ config, database, log: recordingLog(lines) });
  await system.start();
  open.push({ system, database });
  return { system, database, boss: (system.queue as ReturnType<typeof pgBossQueue>).boss };
}

describe.skipIf(skipReason !== null)('chores as pg-boss schedules (PostgreSQL)', () => {
  beforeAll(async () => {
    fresh = await freshPostgresDatabase(adminUrl!, 'chores');
    const database = await openDatabase(fresh.url);
    await migrateToLatest(database);
    await database.close();
  });
  afterAll(async () => {
    for (const { system, database } of open.splice(0).reverse()) {
      await system.stop();
      await database.close();
    }
    await fresh?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('workers run the scheduler, api processes do not; two workers: one schedule per chore; a chore job runs once, on one worker, deleting a backlog larger than a page', async () => {
    const linesA: string[] = [];
    const linesB: string[] = [];
    // pg-boss stamps its cron claim (version.cron_on) on every pass of its scheduler: an api process runs none.
    const cronOn = async (db: AppDatabase['db']) =>
      (await sql<{ at: Date | null }>`select cron_on as at from pgboss.version`.execute(db)).rows[0]?.at ?? null;
    const api = await instance('api', []);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await cronOn(api.database.db)).toBeNull();
    const a = await instance('worker', linesA);
    // A second worker, as a cluster has: it registers the same schedules and fetches the same chore queues.
    await instance('worker', linesB);
    // The workers run the scheduler: its first pass comes right after start.
    const started = Date.now();
    while ((await cronOn(a.database.db)) === null) {
      if (Date.now() - started > 10_000) throw new Error("no worker ran pg-boss's scheduler");
      await new Promise((r) => setTimeout(r, 100));
    }
    const schedules = await a.boss.getSchedules();
    const chores = schedules.filter((s) => s.name === CHORES.mediaQueue || s.name === CHORES.trackingQueue);
    expect(chores.map((s) => [s.name, s.cron]).sort()).toEqual(
      [
        [CHORES.mediaQueue, CHORES.mediaCron],
        [CHORES.trackingQueue, CHORES.trackingCron],
      ].sort(),
    );
    // No other schedule: the task queues are not scheduled.
    expect(schedules.filter((s) => s.name === TASK_QUEUE.jobs)).toEqual([]);

    // 1,234 events 200 days old (the default partition: no day covers them), more than two pages; 3 recent ones stay.
    const old = Date.now() - 200 * DAY_MS;
    const rows = Array.from({ length: 1234 }, (_, i) => event(`old-${i}`, old + i));
    for (let i = 0; i < rows.length; i += 500)
      await a.database.db
        .insertInto('tracking_events')
        .values(rows.slice(i, i + 500))
        .execute();
    await a.database.db
      .insertInto('tracking_events')
      .values([event('new-1', Date.now()), event('new-2', Date.now()), event('new-3', Date.now())])
      .execute();
    // What the schedule sends each hour, sent now.
    await a.boss.send(CHORES.trackingQueue, {});
    const deadline = Date.now() + 20_000;
    const left = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from tracking_events`.execute(a.database.db)).rows[0]!.n);
    while ((await left()) !== 3) {
      if (Date.now() > deadline) throw new Error(`the tracking chore did not run: ${await left()} events left`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1000));
    const ran = [...linesA, ...linesB].filter((l) => l === 'tracking retention done');
    expect(ran).toHaveLength(1);
    expect(linesA.concat(linesB).filter((l) => l.includes('failed'))).toEqual([]);
  });
});
