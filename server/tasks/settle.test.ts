// Settling a task on SQLite and (with TEST_DATABASE_URL) PostgreSQL: a success charges its price from the hold, a
// failure or cancel refunds the hold, a free run moves nothing, a second settle changes nothing.
import { describe, expect, it } from 'vitest';
import { endedTaskMessage, TASK_MESSAGES, type TaskStatus } from '../../src/lib/product-rules';
import { createLogger } from '../log';
import { APP_DATABASES } from '../test-support/app-databases';
import { testApps, testEngine, type TestTaskApp } from '../test-support/task-apps';
import { LEDGER_REASONS, taskSettlement, type TaskSettlementOptions } from './settle';

const openApp = testApps();
let t: TestTaskApp;

const output = { media: ['m1'] };

describe.each(APP_DATABASES)('settling a task on $label', ({ postgres }) => {
  /** A queued task of `characters` characters of speech on `engine`, held by a real submit; no queue runs it. */
  async function held(o: { characters: number; engine?: string; noModelPrice?: 'free' | 'full'; credits?: number }) {
    const engine = o.engine ?? 'model';
    t = await openApp({
      postgres,
      engines: [testEngine({ name: engine })],
      env: { ENGINES: `tts-common=${engine}`, NO_MODEL_PRICE: o.noModelPrice ?? 'full' },
    });
    const user = await t.createUser(o.credits ?? 10);
    const { task } = await t.submitSpeech(user.id, 'x'.repeat(o.characters));
    const ended: Array<{ id: string; status: TaskStatus }> = [];
    const finished: string[] = [];
    const settlement = taskSettlement({
      db: t.database.db,
      log: createLogger('silent'),
      providerJobs: { settle: async (job) => void ended.push({ id: job.id, status: job.status }) },
      onFinished: async (_trx, row) => void finished.push(row.status),
    });
    return { app: t, user, task, settlement, ended, finished };
  }

  const reasons = async (app: TestTaskApp, userId: string) =>
    (await app.creditState(userId)).ledger.map((r) => [r.reason, r.delta]);

  it('a success is charged its price: the rest of the hold comes back as a settle row', async () => {
    const { app, user, task, settlement, ended, finished } = await held({ characters: 600 });
    expect(task.credits_held).toBe(3);
    expect(await settlement.finish(task.id, { status: 'succeeded', output, charge: 2 })).toBe(true);
    await settlement.providerJobsEnded();
    const done = (await app.system.tasks.byId(task.id))!;
    expect(done).toMatchObject({ status: 'succeeded', credits_charged: 2, progress: 100, error: null });
    expect(JSON.parse(done.output!)).toEqual(output);
    expect(await reasons(app, user.id)).toEqual([
      ['grant', 10],
      [LEDGER_REASONS.hold, -3],
      [LEDGER_REASONS.settle, 1],
    ]);
    expect((await app.creditState(user.id)).balance).toBe(8);
    expect(ended).toEqual([{ id: task.id, status: 'succeeded' }]);
    expect(finished).toEqual(['succeeded']);
  });

  it('a result dearer than the hold is charged the rest while the balance allows, else the hold only', async () => {
    const { app, user, task, settlement } = await held({ characters: 250, credits: 4 });
    expect(task.credits_held).toBe(1);
    expect(await settlement.finish(task.id, { status: 'succeeded', output, charge: 3 })).toBe(true);
    expect((await app.system.tasks.byId(task.id))!.credits_charged).toBe(3);
    expect((await app.creditState(user.id)).balance).toBe(1);
    const short = await app.system.tasks.submit({
      userId: user.id,
      feature: 'tts-common',
      input: { text: 'z'.repeat(250), voice: 'en-us-male-1' },
      source: 'api',
    });
    expect(await settlement.finish(short.task.id, { status: 'succeeded', output, charge: 4 })).toBe(true);
    expect((await app.system.tasks.byId(short.task.id))!.credits_charged).toBe(1);
    const state = await app.creditState(user.id);
    expect(state.balance).toBe(0);
    expect(state.ledgerSum).toBe(0);
  });

  it('a failure refunds the whole hold and says so', async () => {
    const { app, user, task, settlement, ended } = await held({ characters: 600 });
    expect(await settlement.finish(task.id, { status: 'failed', error: TASK_MESSAGES.engineFailed })).toBe(true);
    await settlement.providerJobsEnded();
    const done = (await app.system.tasks.byId(task.id))!;
    expect(done).toMatchObject({ status: 'failed', credits_charged: 0, output: null });
    expect(done.error).toBe(endedTaskMessage(TASK_MESSAGES.engineFailed, 3));
    expect(await reasons(app, user.id)).toEqual([
      ['grant', 10],
      [LEDGER_REASONS.hold, -3],
      [LEDGER_REASONS.refund, 3],
    ]);
    expect(ended).toEqual([{ id: task.id, status: 'failed' }]);
  });

  it('a cancel refunds the whole hold', async () => {
    const { app, user, task, settlement } = await held({ characters: 300 });
    expect(await settlement.finish(task.id, { status: 'canceled', error: TASK_MESSAGES.canceledByUser })).toBe(true);
    expect((await app.system.tasks.byId(task.id))!).toMatchObject({ status: 'canceled', credits_charged: 0 });
    expect(await reasons(app, user.id)).toEqual([
      ['grant', 10],
      [LEDGER_REASONS.hold, -2],
      [LEDGER_REASONS.refund, 2],
    ]);
  });

  it('a free run (no AI model, NO_MODEL_PRICE=free) holds 0, is charged 0 and moves no credits, failed or not', async () => {
    const { app, user, task, settlement } = await held({ characters: 600, engine: 'espeak', noModelPrice: 'free' });
    expect(task.credits_held).toBe(0);
    expect(await settlement.finish(task.id, { status: 'succeeded', output, charge: 0 })).toBe(true);
    expect((await app.system.tasks.byId(task.id))!.credits_charged).toBe(0);
    const failing = await app.system.tasks.submit({
      userId: user.id,
      feature: 'tts-common',
      input: { text: 'y'.repeat(600), voice: 'en-us-male-1' },
      source: 'api',
    });
    expect(await settlement.finish(failing.task.id, { status: 'failed', error: TASK_MESSAGES.engineFailed })).toBe(
      true,
    );
    // It held nothing, so nothing is said to have come back.
    expect((await app.system.tasks.byId(failing.task.id))!.error).toBe(TASK_MESSAGES.engineFailed);
    expect(await reasons(app, user.id)).toEqual([['grant', 10]]);
  });

  it('a second settle, or one by an attempt that lost the task, changes nothing', async () => {
    const { app, user, task, settlement, ended } = await held({ characters: 600 });
    await app.database.db
      .updateTable('tasks')
      .set({ status: 'running', attempts: 2 })
      .where('id', '=', task.id)
      .execute();
    expect(await settlement.finish(task.id, { status: 'failed', error: 'stale' }, ['running'], 1)).toBe(false);
    expect(await settlement.finish(task.id, { status: 'succeeded', output, charge: 3 }, ['running'], 2)).toBe(true);
    expect(await settlement.finish(task.id, { status: 'failed', error: 'late' })).toBe(false);
    expect(await settlement.finish(task.id, { status: 'canceled', error: TASK_MESSAGES.canceledByUser })).toBe(false);
    await settlement.providerJobsEnded();
    expect((await app.system.tasks.byId(task.id))!).toMatchObject({ status: 'succeeded', credits_charged: 3 });
    expect(await reasons(app, user.id)).toEqual([
      ['grant', 10],
      [LEDGER_REASONS.hold, -3],
    ]);
    expect(ended).toHaveLength(1);
  });

  it('rolls the credits back with the outcome when the finishing hook fails', async () => {
    const { app, user, task } = await held({ characters: 600 });
    const onFinished: TaskSettlementOptions['onFinished'] = async () => {
      throw new Error('webhook row not stored');
    };
    const settlement = taskSettlement({
      db: app.database.db,
      log: createLogger('silent'),
      providerJobs: { settle: async () => {} },
      onFinished,
    });
    await expect(settlement.finish(task.id, { status: 'failed', error: 'x' })).rejects.toThrow(
      'webhook row not stored',
    );
    expect((await app.system.tasks.byId(task.id))!.status).toBe('queued');
    expect(await reasons(app, user.id)).toEqual([
      ['grant', 10],
      [LEDGER_REASONS.hold, -3],
    ]);
  });
});
