// Chores with QUEUE=pg-boss on PostgreSQL: workers (not api processes) run the scheduler, two workers register each
// schedule once, and a chore's job runs on one worker only, in pages.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { AppDatabase } from '../db';
import { trackingEventRow as event } from '../test-support/tracking-events';
import type { Logger } from '../log';
import { CHORES, TASK_QUEUE } from '../../src/lib/product-rules';
import type { pgBossQueue } from './pg-boss-queue';
import { postgresSkipReason } from '../test-support/instances';
import { pgBossSystems } from '../test-support/pg-boss-systems';

const adminUrl = process.env.TEST_DATABASE_URL;
const skipReason = await postgresSkipReason(adminUrl);
if (skipReason) console.warn(`pg-boss chore tests skipped: ${skipReason}`);

const DAY_MS = 24 * 60 * 60 * 1000;

/** A logger that keeps the messages of one worker, so the test can tell which worker ran a chore. */
function recordingLog(lines: string[]): Logger {
  const keep = (msg: string) => void lines.push(msg);
  return { debug: keep, info: keep, warn: keep, error: keep };
}

describe.skipIf(skipReason !== null)('chores as pg-boss schedules (PostgreSQL)', () => {
  const systems = pgBossSystems(adminUrl ?? '', 'chores');
  async function instance(role: 'api' | 'worker', lines: string[]) {
    const env = { QUEUE_RETRY_DELAY_S: '1', TRACKING_RETENTION_DAYS: '30' };
    const { system, database } = await systems.start(role, { env, log: recordingLog(lines) });
    return { system, database, boss: (system.queue as ReturnType<typeof pgBossQueue>).boss };
  }

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
