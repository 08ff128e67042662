// The in-process queue (SQLite's default) pauses as pg-boss does: while its media store does not answer it claims no
// task, running ones go on, and it claims again once the store answers.
import { describe, expect, it } from 'vitest';
import { testEngine, testApps, type TestTaskApp, type TestUser } from '../test-support/task-apps';
import { useManualWorkPause } from '../test-support/work-pause';

const openApp = testApps();
const outage = useManualWorkPause();
let t: TestTaskApp;

/** Enough poll intervals (TASK_POLL_MS is 50 here) for an unpaused worker to have claimed a task many times. */
const POLLS_MS = 750;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function submit(user: TestUser, text: string): Promise<string> {
  const { task } = await t.submitSpeech(user.id, text);
  t.system.queue.notify();
  return task.id;
}
const statusOf = async (id: string) => (await t.system.tasks.byId(id))!.status;

describe('the in-process queue pauses', () => {
  it('claims nothing while paused, lets a running task finish, and claims again on resume', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    t = await openApp({ engines: [testEngine({ gate })], env: { ENGINES: 'tts-common=test' } });
    const { queue } = t.system;
    expect(queue.pause).toBeTypeOf('function');
    expect(queue.resume).toBeTypeOf('function');
    await t.system.start();
    const user = await t.createUser(10);
    const running = await submit(user, 'running when paused');
    for (let i = 0; (await statusOf(running)) !== 'running'; i++) {
      if (i > 200) throw new Error('the first task never started');
      await sleep(25);
    }

    await queue.pause!();
    const waiting = await submit(user, 'submitted while paused');
    release();
    expect((await t.waitForTask(running)).status).toBe('succeeded');
    await sleep(POLLS_MS);
    expect(await statusOf(waiting)).toBe('queued');

    await queue.resume!();
    expect((await t.waitForTask(waiting)).status).toBe('succeeded');
  });

  it('with S3 away, the work pause stops its claims (naming s3 as the reason); the task runs once S3 answers', async () => {
    const s3 = await outage.s3('queue-pause');
    t = await openApp({ engines: [testEngine()], env: { ENGINES: 'tts-common=test', ...s3.env('pause') } });
    const { queue } = t.system;
    // Checked only when told (check()), so the test decides when.
    const { lifecycle, pause } = outage.pause(
      { pause: async () => queue.pause?.(), resume: async () => queue.resume?.() },
      { config: t.config, database: t.database, queue },
    );
    await t.system.start();
    const user = await t.createUser(10);

    await s3.stop();
    await pause.check();
    expect(Object.keys(lifecycle.paused ?? {})).toEqual(['s3']);
    const waiting = await submit(user, 'submitted while the bucket is away');
    await sleep(POLLS_MS);
    expect(await statusOf(waiting)).toBe('queued');

    await s3.start();
    await pause.check();
    expect(lifecycle.paused).toBeNull();
    const done = await t.waitForTask(waiting);
    expect(done.status).toBe('succeeded');
    // Claimed once, after the store came back: its output went straight to the bucket.
    expect(done.attempts).toBe(1);
  }, 30_000);
});
