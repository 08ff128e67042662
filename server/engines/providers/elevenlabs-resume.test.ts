// A dub survives its server: kill -9 or a SIGTERM hand-back mid-dub, then a restart on the same data, follows the same
// dub (one submission, charged once); a dub whose task is canceled, fails or times out is deleted at ElevenLabs.
import { describe, expect, it } from 'vitest';
import { useProviderResume } from '../../test-support/provider-resume';
import { until } from '../../test-support/server-process';
import { PROVIDER_JOB_MESSAGES } from '../../../src/lib/product-rules';
import { KEY, useElevenLabsFake } from './elevenlabs.fixtures';

const el = useElevenLabsFake();
const rig = useProviderResume<{ id: string }>({
  name: 'elevenlabs-resume',
  env: () => ({
    ENGINES: 'video-translate-voice-only=elevenlabs',
    ELEVENLABS_API_KEY: KEY,
    ELEVENLABS_BASE_URL: el.fake.url,
  }),
  /** A voice-only translation of a video on another host (the fake serves it). */
  request: () => ({
    path: '/api/async/video_translate/2.0',
    body: { videoUrl: `${el.fake.url}/files/source.mp4`, targetLanguage: 'es', enableLipSync: false },
  }),
  followed: (ref) => until(() => el.fake.calls.some((c) => c.method === 'GET' && c.path === `/v1/dubbing/${ref.id}`)),
});

const dubbingSubmits = () => el.posts('/v1/dubbing').length;
const deletes = (id: string) =>
  el.fake.calls.filter((c) => c.method === 'DELETE' && c.path === `/v1/dubbing/${id}`).length;

/** One submission, the dub never deleted, nothing left dubbing. */
function expectSameDubFollowed() {
  expect(dubbingSubmits()).toBe(1);
  expect(deletes('dub1')).toBe(0);
  expect(el.fake.running()).toEqual([]);
}

/** The dub deleted once at ElevenLabs, never submitted again. */
async function expectDubDeleted() {
  await until(() => deletes('dub1') === 1);
  expect(el.fake.running()).toEqual([]);
  expect(dubbingSubmits()).toBe(1);
}

describe('ElevenLabs dubbing across server processes', () => {
  it('kill -9 mid-dub, then a restart on the same data: the same dub is followed, one submission, charged once', async () => {
    el.fake.mode = 'gated';
    const job = await rig.killMidJob();
    el.fake.release();

    await rig.resumeChargedOnce(job);
    expectSameDubFollowed();
    // The finishing process ends the task's jobs just after the task commits (in the background), so wait for it.
    await until(async () => (await rig.storedJob(job.taskId)).ended_at !== null);
    const stored = await rig.storedJob(job.taskId);
    expect(stored).toMatchObject({ engine: 'elevenlabs', name: 'dubbing', attempt: 2 });
    expect(JSON.parse(stored.ref)).toMatchObject({ id: 'dub1' });
  }, 120_000);

  it('a SIGTERM drain hands the task back without deleting its dub; the next start follows the same dub, charged once', async () => {
    el.fake.mode = 'gated';
    const job = await rig.drainMidJob();
    expect(deletes('dub1')).toBe(0);
    el.fake.release();

    await rig.resumeChargedOnce(job);
    expectSameDubFollowed();
  }, 120_000);

  it('a task canceled while no process runs it has its dub deleted from the stored reference, refunded', async () => {
    el.fake.mode = 'hang';
    await rig.cancelWhileNoneRuns(await rig.killMidJob());
    await expectDubDeleted();
  }, 120_000);

  it('a resumed dub that runs past the engine deadline is deleted at ElevenLabs, failed and refunded, never submitted again', async () => {
    el.fake.mode = 'hang';
    await rig.resumePastDeadline(await rig.killMidJob(), 'elevenlabs');
    await expectDubDeleted();
  }, 120_000);

  it('a dub ElevenLabs no longer knows fails the resumed attempt with that reason instead of dubbing again', async () => {
    el.fake.mode = 'hang';
    const job = await rig.killMidJob();
    // Gone at ElevenLabs while no process ran the task (deleted in its dashboard, or expired).
    await fetch(`${el.fake.url}/v1/dubbing/dub1`, { method: 'DELETE', headers: { 'xi-api-key': KEY } });

    const task = await rig.resumeFailed(job);
    expect(task.error).toContain(PROVIDER_JOB_MESSAGES.unknown('ElevenLabs', 'dub1'));
    expect(dubbingSubmits()).toBe(1);
  }, 120_000);
});
