// Recurring chores (media retention, tracking retention): pg-boss schedules with one runner across the cluster, or a
// timer in the single in-process server.
import type { PgBoss } from 'pg-boss';
import { CHORES } from '../../src/lib/product-rules';
import type { AppDatabase } from '../db';
import type { Logger } from '../log';
import { pruneTrackingEvents } from '../tracking/retention';

/** One chore: what it is called in the log, its pg-boss queue and cron, and one pass of it (which works in pages). */
export interface Chore {
  name: string;
  queue: string;
  cron: string;
  /** One pass; answers counts for the log (rows or files removed, partitions made and dropped). */
  run(): Promise<Record<string, number>>;
}

export interface ChoreSources {
  database: AppDatabase;
  /** The media retention pass: expired results recorded on their tasks, then the files and rows removed (paged). */
  cleanupMedia(): Promise<number>;
  /** TRACKING_RETENTION_DAYS. */
  trackingRetentionDays: number;
}

export function choreList(o: ChoreSources): Chore[] {
  return [
    {
      name: 'media retention',
      queue: CHORES.mediaQueue,
      cron: CHORES.mediaCron,
      run: async () => ({ removed: await o.cleanupMedia() }),
    },
    {
      name: 'tracking retention',
      queue: CHORES.trackingQueue,
      cron: CHORES.trackingCron,
      run: async () => ({ ...(await pruneTrackingEvents(o.database, { retentionDays: o.trackingRetentionDays })) }),
    },
  ];
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs a chore and says what it did; quiet when it found nothing to do. A failure is logged and thrown on. */
async function runLogged(chore: Chore, log: Logger): Promise<void> {
  try {
    const counts = await chore.run();
    if (Object.values(counts).some((n) => n > 0)) log.info(`${chore.name} done`, counts);
  } catch (error) {
    log.error(`${chore.name} failed`, { error: message(error) });
    throw error;
  }
}

export interface RunningChores {
  /** Stops running chores; a pass under way finishes its page loop first. */
  stop(): Promise<void>;
}

/**
 * QUEUE=pg-boss: each chore is a queue with a schedule. Every worker registers the same schedule (an upsert: one row
 * per chore), pg-boss's cron pass sends one job per occurrence for the whole cluster, and the queue's `stately`
 * policy keeps a second job from running beside one still active; whichever worker fetches it runs it.
 */
export async function scheduleChores(boss: PgBoss, chores: readonly Chore[], log: Logger): Promise<RunningChores> {
  for (const chore of chores) {
    await boss.createQueue(chore.queue, { policy: 'stately', expireInSeconds: CHORES.expireInS, retryLimit: 1 });
    await boss.schedule(chore.queue, chore.cron, null, { tz: 'UTC' });
    await boss.work(chore.queue, async ([job]) => {
      if (job) await runLogged(chore, log);
    });
  }
  // The queue's stop ends these workers with the rest of pg-boss.
  return { stop: async () => undefined };
}

/** The in-process queue (one server): the chores run one after another at start and then every CHORES.intervalMs. */
export function choreTimer(
  chores: readonly Chore[],
  log: Logger,
  intervalMs: number = CHORES.intervalMs,
): RunningChores {
  let pass: Promise<void> | undefined;
  const runAll = () => {
    if (pass) return;
    pass = (async () => {
      for (const chore of chores) await runLogged(chore, log).catch(() => undefined);
    })().finally(() => (pass = undefined));
  };
  runAll();
  const timer = setInterval(runAll, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await pass;
    },
  };
}
