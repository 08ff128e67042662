// Retention chores on SQLite and (with TEST_DATABASE_URL) PostgreSQL: media and task bookkeeping in pages smaller than
// the backlog, and the in-process timer running both chores at start.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { trackingEventRow as event } from '../test-support/tracking-events';
import { createMediaService, localMediaStore } from '../media';
import { testApps, type TestTaskApp } from '../test-support/task-apps';
import { recordExpiredOutputs } from './retention';
import { APP_DATABASES } from '../test-support/app-databases';

const targets = APP_DATABASES;
const DAY_MS = 24 * 60 * 60 * 1000;

const openApp = testApps();
let t: TestTaskApp;

/** Files under the media directory, however deep. */
function mediaFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

/** `count` succeeded tasks with one result each, finished a while ago; `expired` of them past their retention. */
async function tasksWithResults(app: TestTaskApp, count: number, expired: number, now: number) {
  const user = await app.createUser(0);
  for (let i = 0; i < count; i++) {
    const id = `chore-task-${String(i).padStart(3, '0')}`;
    await app.database.db
      .insertInto('tasks')
      .values({
        id,
        user_id: user.id,
        feature: 'tts-common',
        status: 'succeeded',
        source: 'api',
        input: '{}',
        output: '{"media":[{"id":"x"}]}',
        error: null,
        engine: 'test',
        price_item: 'tts-common',
        credits_charged: 0,
        idempotency_key: null,
        request_hash: null,
        callback_url: null,
        created_at: now - DAY_MS,
        started_at: now - DAY_MS,
        finished_at: now - DAY_MS,
        updated_at: now - DAY_MS,
        outputs_expired_at: null,
        trace_context: null,
      })
      .execute();
    const media = await app.system.media.saveOutput(
      user.id,
      id,
      'audio',
      'audio/wav',
      new Uint8Array([i % 256, 1, 2, 3]),
      1,
    );
    if (i < expired)
      await app.database.db
        .updateTable('media')
        .set({ expires_at: now - 1000 - i })
        .where('id', '=', media.id)
        .execute();
  }
}

describe.each(targets)('retention chores on $label', ({ postgres }) => {
  it('media retention works in pages: 23 expired results with pages of 10, each task told when, the 4 kept untouched', async () => {
    t = await openApp({ postgres });
    const now = Date.now();
    await tasksWithResults(t, 27, 23, now);
    expect(mediaFiles(t.config.tasks.mediaDir)).toHaveLength(27);
    // Every statement's affected rows, seen through a plugin: none may touch more than a page.
    const touched: number[] = [];
    const db = t.database.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => (
        args.result.numAffectedRows !== undefined && touched.push(Number(args.result.numAffectedRows)),
        args.result
      ),
    });
    expect(await recordExpiredOutputs(db, now, t.config.tasks.retentionMs, 10)).toBe(23);
    const media = createMediaService({
      db,
      store: localMediaStore(t.config.tasks.mediaDir),
      publicUrl: 'http://localhost',
      retentionMs: DAY_MS,
      secret: () => Buffer.alloc(32),
    });
    expect(await media.cleanup(now, 10)).toBe(23);
    expect(Math.max(...touched)).toBe(10);
    // Updates 10, 10, 3 (then 0 for the second kind), deletes 10, 10, 3.
    expect(touched.filter((n) => n > 0)).toEqual([10, 10, 3, 10, 10, 3]);
    expect(mediaFiles(t.config.tasks.mediaDir)).toHaveLength(4);
    const tasks = await t.database.db.selectFrom('tasks').select(['id', 'outputs_expired_at']).orderBy('id').execute();
    expect(tasks.filter((r) => r.outputs_expired_at !== null).map((r) => r.id)).toEqual(
      tasks.slice(0, 23).map((r) => r.id),
    );
    expect(Number(tasks[0]!.outputs_expired_at)).toBe(now - 1000);
    const left = await t.database.db.selectFrom('media').select('task_id').orderBy('task_id').execute();
    expect(left.map((r) => r.task_id)).toEqual(tasks.slice(23).map((r) => r.id));
    // Nothing left to do: a second pass removes nothing.
    expect(await t.system.cleanup(now)).toBe(0);
  });

  it('the in-process server runs both chores at start: expired media and events past TRACKING_RETENTION_DAYS are gone', async () => {
    t = await openApp({ postgres, env: { TRACKING_RETENTION_DAYS: '5' } });
    const now = Date.now();
    await tasksWithResults(t, 3, 2, now);
    await t.database.db
      .insertInto('tracking_events')
      .values([event('old-1', now - 6 * DAY_MS), event('old-2', now - 30 * DAY_MS), event('kept', now - 4 * DAY_MS)])
      .execute();
    await t.system.start();
    const deadline = Date.now() + 20_000;
    for (;;) {
      const media = await t.database.db.selectFrom('media').select('id').execute();
      const events = await t.database.db.selectFrom('tracking_events').select('entry_id').execute();
      if (media.length === 1 && events.length === 1) {
        expect(events.map((e) => e.entry_id)).toEqual(['kept']);
        break;
      }
      if (Date.now() > deadline)
        throw new Error(`chores did not finish: ${media.length} media, ${events.length} events left`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});
