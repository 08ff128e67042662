// A fal job survives its server: kill -9 or a SIGTERM hand-back mid-job, then a restart on the same data, polls the
// same request (one submission, charged once); a job whose task is canceled, fails or times out is canceled at fal.
import { describe, expect, it } from 'vitest';
import { useProviderResume } from '../../test-support/provider-resume';
import { until } from '../../test-support/server-process';
import { FAL_MODELS, PROVIDER_JOB_MESSAGES } from '../../../src/lib/product-rules';
import { useFalFake } from './fal.fixtures';

const fal = useFalFake();
const rig = useProviderResume<{ requestId: string }>({
  name: 'fal-resume',
  env: () => ({
    ENGINES: 'text-to-video=fal',
    FAL_KEY: 'test-key',
    FAL_QUEUE_URL: fal.fake.url,
    FAL_STORAGE_URL: fal.fake.url,
  }),
  /** A text-to-video task. */
  request: () => ({ path: '/api/async/text2video', body: { prompt: 'a fox in snow' } }),
  followed: (ref) => until(() => fal.fake.statusCalls.has(ref.requestId)),
});

const submits = () =>
  fal.fake.calls.filter((c) => c.method === 'POST' && c.path === `/${FAL_MODELS.textToVideo}`).length;
const cancels = () => fal.fake.calls.filter((c) => c.method === 'PUT' && c.path.endsWith('/cancel')).length;

/** One submission, no cancel, nothing left running at fal. */
function expectSameRequestPolled() {
  expect(submits()).toBe(1);
  expect(cancels()).toBe(0);
  expect(fal.fake.running()).toEqual([]);
}

/** The job canceled once at fal, never submitted again. */
async function expectJobCanceled() {
  await until(() => cancels() === 1);
  expect(fal.fake.running()).toEqual([]);
  expect(submits()).toBe(1);
}

describe('fal jobs across server processes', () => {
  it('kill -9 mid-job, then a restart on the same data: the same request is polled, one submission, charged once', async () => {
    fal.fake.mode = 'hook';
    const job = await rig.killMidJob();
    fal.fake.released = true;

    await rig.resumeChargedOnce(job);
    expectSameRequestPolled();
    const stored = await rig.storedJob(job.taskId);
    expect(stored).toMatchObject({ engine: 'fal', name: 'job', attempt: 2 });
    expect(JSON.parse(stored.ref)).toMatchObject({ requestId: job.ref.requestId });
  }, 120_000);

  it('a SIGTERM drain hands the task back without canceling its job; the next start polls the same request, charged once', async () => {
    fal.fake.mode = 'hook';
    const job = await rig.drainMidJob();
    expect(cancels()).toBe(0);
    fal.fake.released = true;

    await rig.resumeChargedOnce(job);
    expectSameRequestPolled();
  }, 120_000);

  it('a task canceled while no process runs it has its job canceled at fal from the stored reference, refunded', async () => {
    fal.fake.mode = 'hang';
    const job = await rig.killMidJob();
    await rig.cancelWhileNoneRuns(job);
    await expectJobCanceled();
    expect(fal.fake.canceled()).toEqual([job.ref.requestId]);
  }, 120_000);

  it('a resumed job that runs past the engine deadline is canceled at fal, failed and refunded, never submitted again', async () => {
    fal.fake.mode = 'hang';
    await rig.resumePastDeadline(await rig.killMidJob(), 'fal');
    await expectJobCanceled();
  }, 120_000);

  it('a request fal no longer knows fails the resumed attempt with that reason instead of submitting again', async () => {
    fal.fake.mode = 'hang';
    const job = await rig.killMidJob();
    // Expired at fal while no process ran the task.
    fal.fake.forgetJobs();

    const task = await rig.resumeFailed(job);
    expect(task.error).toContain(PROVIDER_JOB_MESSAGES.unknown('fal.ai', job.ref.requestId));
    expect(submits()).toBe(1);
  }, 120_000);
});
