// The per-day, per-feature usage report (runs and credits) and billing rows that say which task they are about.
import { describe, expect, it } from 'vitest';
import { USAGE } from '../../src/lib/product-rules';
import { createTasksTestApp, createUser, waitForTask } from '../test-support/tasks';
import { appAndUserEachTest } from '../test-support/user-app';

const fresh = appAndUserEachTest(100);
const call = fresh.post;

const zeros = () => new Array<number>(USAGE.days - 1).fill(0);

describe('usage report', () => {
  it('counts the runs and sums the credits each feature used per day in the caller’s time zone; refunds count nothing', async () => {
    const tts = (text: string, quality: 'common' | 'pro') =>
      call('/api-playground/speech/v1/tts', { text, voiceId: 'en-us-female-1', quality });
    const ids = [
      (await tts('a'.repeat(300), 'common')).body.data.taskId,
      (await tts('short', 'pro')).body.data.taskId,
      (
        await call('/api-playground/speech/v1/dialogue', {
          lines: [{ speaker: 'A', text: 'Hi' }],
          voices: { A: 'en-us-female-1' },
        })
      ).body.data.taskId,
    ];
    for (const id of ids) await waitForTask(fresh.t, id);

    const tz = -120; // UTC+2
    const report = (await call('/apply/usage', { tzOffset: tz })).body.data;
    expect(report.days).toHaveLength(USAGE.days);
    const today = new Date(Date.now() - tz * 60_000).toISOString().slice(0, 10);
    expect(report.days.at(-1)).toBe(today);
    expect(report.features).toEqual([
      { feature: 'tts-common', credits: [...zeros(), 2], runs: [...zeros(), 1], total: 2, totalRuns: 1 },
      { feature: 'tts-pro', credits: [...zeros(), 1], runs: [...zeros(), 1], total: 1, totalRuns: 1 },
      // The failed dialogue was refunded: a run that cost nothing.
      { feature: 'dialogue', credits: [...zeros(), 0], runs: [...zeros(), 1], total: 0, totalRuns: 1 },
    ]);
    expect(report).toMatchObject({ total: 3, totalRuns: 3 });

    // A task deleted from the history keeps its charge in the report; its run left with it.
    await call('/api-playground/video_tools/v1/delete', { taskId: ids[1] });
    const after = (await call('/apply/usage', { tzOffset: tz })).body.data;
    expect(
      after.features.map((f: { feature: string; total: number; totalRuns: number }) => [
        f.feature,
        f.total,
        f.totalRuns,
      ]),
    ).toEqual([
      ['tts-common', 2, 1],
      [USAGE.deletedFeature, 1, 0],
      ['dialogue', 0, 1],
    ]);
    expect(after).toMatchObject({ total: 3, totalRuns: 2 });
    expect((await call('/apply/usage', { tzOffset: 9999 })).body.msg).toBe(
      `tzOffset: must be between -${USAGE.maxTzOffsetMinutes} and ${USAGE.maxTzOffsetMinutes}`,
    );
  });

  it('counts free runs (an engine with no AI model, NO_MODEL_PRICE=free): runs without credits', async () => {
    const free = await createTasksTestApp({
      env: { ENGINES: 'tts-common=espeak', RATE_LIMIT_PER_MINUTE: '1000', NO_MODEL_PRICE: 'free' },
    });
    try {
      await free.system.queue.start();
      const owner = await createUser(free, 10);
      const ask = (path: string, body: unknown) =>
        free.app.request(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', token: owner.token },
          body: JSON.stringify(body),
        });
      for (const text of ['One.', 'Two.']) {
        const { data } = (await (
          await ask('/api-playground/speech/v1/tts', { text, voiceId: 'en-us-female-1' })
        ).json()) as { data: { taskId: string } };
        await waitForTask(free, data.taskId);
      }
      const { data } = (await (await ask('/apply/usage', { tzOffset: 0 })).json()) as {
        data: { features: unknown[]; total: number; totalRuns: number };
      };
      expect(data.features).toEqual([
        { feature: 'tts-common', credits: [...zeros(), 0], runs: [...zeros(), 2], total: 0, totalRuns: 2 },
      ]);
      expect(data).toMatchObject({ total: 0, totalRuns: 2 });
    } finally {
      await free.close();
    }
  });
});

describe('billing history', () => {
  it('says which feature each task row is about and what became of the task', async () => {
    const done = (await call('/api-playground/speech/v1/tts', { text: 'Hello', voiceId: 'en-us-female-1' })).body.data
      .taskId;
    const failed = (
      await call('/api-playground/speech/v1/dialogue', {
        lines: [{ speaker: 'A', text: 'Hi' }],
        voices: { A: 'en-us-female-1' },
      })
    ).body.data.taskId;
    await waitForTask(fresh.t, done);
    await waitForTask(fresh.t, failed);
    const rows = (await call('/user/credits/history', {})).body.data.list as Array<{
      reason: string;
      reference: string;
      task: unknown;
    }>;
    const of = (id: string) => rows.filter((r) => r.reference === id).map((r) => [r.reason, r.task]);
    expect(of(done)).toEqual([
      ['task-hold', { feature: 'tts-common', status: 'succeeded', creditsHeld: 1, creditsCharged: 1 }],
    ]);
    expect(of(failed)).toEqual([
      ['task-refund', { feature: 'dialogue', status: 'failed', creditsHeld: 1, creditsCharged: 0 }],
      ['task-hold', { feature: 'dialogue', status: 'failed', creditsHeld: 1, creditsCharged: 0 }],
    ]);
    expect(rows.find((r) => r.reason === 'grant')?.task).toBeNull();
  });
});
