// After retention a task says its results expired and when (getAsyncResult, poll, history), and keeps the rest of its
// record.
import { beforeAll, describe, expect, it } from 'vitest';
import { TASK_MESSAGES } from '../../src/lib/product-rules';
import { testEngine, type TestTaskApp, type TestUser, testApps } from '../test-support/task-apps';
import { postJson } from '../test-support/post-json';
import { APP_DATABASES } from '../test-support/app-databases';

const targets = APP_DATABASES;

let t: TestTaskApp;
let user: TestUser;

const call = async (path: string, body: unknown, headers: Record<string, string>) =>
  (await postJson(t.app, path, body, headers)).body;
const result = (taskId: string) =>
  call('/api/getAsyncResult', { taskId }, { authorization: `Bearer ${user.apiKey}` }).then((r) => r.data);
const poll = (taskId: string) =>
  call('/api-playground/video_tools/v1/poll', { taskId }, { token: user.token }).then((r) => r.data);
const history = () =>
  call('/api-playground/video_tools/v1/get_list', {}, { token: user.token }).then(
    (r) => r.data.list as Array<{ taskId: string }>,
  );

async function finishedTask(text: string): Promise<string> {
  const r = await call('/api/async/do_tts_common', { text }, { authorization: `Bearer ${user.apiKey}` });
  await t.waitForTask(r.data.taskId);
  return r.data.taskId;
}

describe.each(targets)('expired results on $label', ({ postgres }) => {
  const openApp = testApps({ per: 'block' });
  beforeAll(async () => {
    const env = { ENGINES: 'tts-common=test', MEDIA_RETENTION_DAYS: '7' };
    t = await openApp({ postgres, engines: [testEngine()], env, start: 'queue' });
    user = await t.createUser(10);
  });

  it('a task with its results kept says nothing expired', async () => {
    const id = await finishedTask('kept');
    const r = await result(id);
    expect(r.task).toMatchObject({ status: 3, reason: '', outputsExpired: false, outputsExpiredAt: null });
    expect(r.audios).toHaveLength(1);
    expect(await poll(id)).toMatchObject({
      outputsExpired: false,
      outputsExpiredAt: null,
      outputs: [{ kind: 'audio' }],
    });
  });

  it('past retention, before and after the cleanup pass: expired and when, no dead links, status, credits and input kept', async () => {
    const id = await finishedTask('expiring');
    const fresh = await poll(id);
    const expiredAt = Date.now() - 60_000;
    // Time passes beyond retention: the files' expiry is now in the past (their links already answer 403).
    await t.database.db.updateTable('media').set({ expires_at: expiredAt }).where('task_id', '=', id).execute();

    for (const when of ['before cleanup', 'after cleanup']) {
      if (when === 'after cleanup') {
        expect(await t.system.cleanup()).toBeGreaterThan(0);
        expect(await t.database.db.selectFrom('media').select('id').where('task_id', '=', id).execute()).toHaveLength(
          0,
        );
      }
      const r = await result(id);
      expect({ when, task: r.task }).toMatchObject({
        when,
        task: {
          status: 3,
          statusName: 'succeeded',
          outputsExpired: true,
          outputsExpiredAt: expiredAt,
          reason: TASK_MESSAGES.outputsExpired,
          credits: fresh.credits,
        },
      });
      expect(r.audios).toEqual([]);
      const view = await poll(id);
      expect({ when, view }).toMatchObject({
        when,
        view: {
          status: 'succeeded',
          outputsExpired: true,
          outputsExpiredAt: expiredAt,
          outputs: [],
          credits: fresh.credits,
          creditsCharged: fresh.creditsCharged,
          input: fresh.input,
        },
      });
      const listed = (await history()).find((x) => x.taskId === id);
      expect(listed).toMatchObject({ outputsExpired: true, outputsExpiredAt: expiredAt, outputs: [] });
    }
  });

  it('results removed before the expiry was recorded are dated finish + retention by the next pass', async () => {
    const id = await finishedTask('removed long ago');
    const finishedAt = Date.now() - 8 * 24 * 60 * 60 * 1000;
    await t.database.db.updateTable('tasks').set({ finished_at: finishedAt }).where('id', '=', id).execute();
    await t.database.db.deleteFrom('media').where('task_id', '=', id).execute();
    await t.system.cleanup();
    expect((await result(id)).task).toMatchObject({
      outputsExpired: true,
      outputsExpiredAt: finishedAt + 7 * 24 * 60 * 60 * 1000,
    });
  });
});
