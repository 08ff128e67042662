// Provider jobs are fenced by attempt: a takeover or hand-back resumes the recorded job, an older attempt neither
// writes progress nor cancels it, and a job nobody holds is canceled once.
import { describe, expect, it } from 'vitest';
import type { Engine } from '../engines';
import { testApps, type TestTaskApp } from '../test-support/task-apps';
import { silentWav } from '../test-support/wav';
import { taskHandBack, TaskHandedBack } from './hand-back';
import { APP_DATABASES } from '../test-support/app-databases';

const targets = APP_DATABASES;

/**
 * A provider stand-in as an engine: each run resumes the job an earlier attempt recorded or submits one, then waits for
 * the test. Run n reports progress `n * 10` before it waits (`progressBeforeWait`) or after.
 */
function jobEngine(o: { progressAfterWait?: boolean } = {}) {
  const gates: Array<() => void> = [];
  const state = {
    submits: 0,
    runs: 0,
    resumed: [] as unknown[],
    canceled: [] as unknown[],
    recordErrors: [] as string[],
  };
  const engine: Engine = {
    name: 'test',
    features: ['tts-common'],
    async run(_feature, _input, ctx) {
      const n = ++state.runs;
      const earlier = await ctx.providerJobs.earlier('job');
      if (earlier !== null) state.resumed.push(earlier);
      else {
        state.submits++;
        await ctx.providerJobs.record('job', { id: `job-${state.submits}` }).catch((error: Error) => {
          state.recordErrors.push(error.name);
          throw error;
        });
      }
      if (!o.progressAfterWait) await ctx.progress(n * 10);
      await new Promise<void>((resolve, reject) => {
        gates[n] = resolve;
        ctx.signal.addEventListener(
          'abort',
          () => reject(ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('aborted')),
          { once: true },
        );
      });
      if (o.progressAfterWait) await ctx.progress(n * 10);
      return { outputs: [{ kind: 'audio', mime: 'audio/wav', data: silentWav(1, 22050), durationS: 1 }] };
    },
    async cancelJob(_name, ref) {
      state.canceled.push(ref);
    },
  };
  return {
    engine,
    state,
    open: (n: number) => gates[n]!(),
    waitRuns: async (n: number) => expect.poll(() => gates[n] !== undefined).toBe(true),
  };
}

const openApp = testApps();
let t: TestTaskApp;

async function setUp(postgres: boolean, fake: ReturnType<typeof jobEngine>) {
  t = await openApp({ postgres, engines: [fake.engine], env: { ENGINES: 'tts-common=test' } });
  const user = await t.createUser(10);
  const { task } = await t.submitSpeech(user.id, 'hello there');
  return { tasks: t.system.tasks, user, task, db: t.database.db };
}

describe.each(targets)('provider jobs on $label', ({ postgres }) => {
  it('a takeover resumes the job the first attempt recorded; the first attempt neither writes progress over it nor cancels it', async () => {
    const fake = jobEngine({ progressAfterWait: true });
    const { tasks, task, db } = await setUp(postgres, fake);
    const first = (await tasks.claimNext())!;
    const run1 = tasks.run(first, new AbortController().signal);
    await fake.waitRuns(1);
    const second = (await tasks.claim(task.id))!;
    expect(second.takenOver).toBe(true);
    const run2 = tasks.run(second.task, new AbortController().signal);
    await fake.waitRuns(2);
    expect(fake.state.resumed).toEqual([{ id: 'job-1' }]);

    // The first attempt wakes late: its progress (10) must not replace the current attempt's, nor its result settle.
    fake.open(1);
    await run1;
    expect(
      await db.selectFrom('tasks').select(['status', 'progress']).where('id', '=', task.id).executeTakeFirstOrThrow(),
    ).toEqual({
      status: 'running',
      progress: 0,
    });
    fake.open(2);
    await run2;
    await tasks.providerJobsSettled();
    expect((await tasks.byId(task.id))?.status).toBe('succeeded');
    expect(fake.state.submits).toBe(1);
    expect(fake.state.canceled).toEqual([]);
    expect(await db.selectFrom('provider_jobs').select(['attempt']).where('task_id', '=', task.id).execute()).toEqual([
      { attempt: 2 },
    ]);
  });

  it('an attempt that records its job after losing the task cancels that job and stops; the current attempt runs its own', async () => {
    const fake = jobEngine();
    const { tasks, task } = await setUp(postgres, fake);
    const first = (await tasks.claimNext())!;
    // Taken over before the first attempt's submit was answered.
    const second = (await tasks.claim(task.id))!;
    await tasks.run(first, new AbortController().signal);
    expect(fake.state.recordErrors).toEqual(['ProviderJobOrphaned']);
    expect(fake.state.canceled).toEqual([{ id: 'job-1' }]);
    const run2 = tasks.run(second.task, new AbortController().signal);
    await fake.waitRuns(2);
    fake.open(2);
    await run2;
    expect((await tasks.byId(task.id))?.status).toBe('succeeded');
    expect(fake.state.canceled).toEqual([{ id: 'job-1' }]);
  });

  it('a handed-back attempt leaves its job to the next attempt, which resumes it: one submission, nothing canceled', async () => {
    const fake = jobEngine();
    const { tasks, task, db } = await setUp(postgres, fake);
    const first = (await tasks.claimNext())!;
    const controller = new AbortController();
    const run1 = tasks.run(first, controller.signal);
    await fake.waitRuns(1);
    expect(await taskHandBack(db)(first)).toBe(true);
    controller.abort(new TaskHandedBack('handed back'));
    await run1;
    expect(fake.state.canceled).toEqual([]);
    const next = (await tasks.claimNext())!;
    const run2 = tasks.run(next, new AbortController().signal);
    await fake.waitRuns(2);
    fake.open(2);
    await run2;
    expect((await tasks.byId(task.id))?.status).toBe('succeeded');
    expect(fake.state).toMatchObject({ submits: 1, resumed: [{ id: 'job-1' }], canceled: [] });
  });

  it('a task canceled while its job runs has the job canceled once, by the canceling call, not again by the run', async () => {
    const fake = jobEngine();
    const { tasks, task, user } = await setUp(postgres, fake);
    const first = (await tasks.claimNext())!;
    const controller = new AbortController();
    const run1 = tasks.run(first, controller.signal);
    await fake.waitRuns(1);
    await tasks.cancel(user.id, task.id);
    controller.abort(new Error('canceled'));
    await run1;
    await tasks.providerJobsSettled();
    expect(fake.state.canceled).toEqual([{ id: 'job-1' }]);
    expect((await tasks.byId(task.id))?.status).toBe('canceled');
  });

  it('an engine that fails cancels the job it recorded, once, and the failed task has nothing left to cancel', async () => {
    const fake = jobEngine();
    const { tasks, task } = await setUp(postgres, fake);
    const first = (await tasks.claimNext())!;
    const controller = new AbortController();
    const run1 = tasks.run(first, controller.signal);
    await fake.waitRuns(1);
    controller.abort(new Error('the provider failed'));
    await run1;
    await tasks.providerJobsSettled();
    expect((await tasks.byId(task.id))?.status).toBe('failed');
    expect(fake.state.canceled).toEqual([{ id: 'job-1' }]);
  });
});
