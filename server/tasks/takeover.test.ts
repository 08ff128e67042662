// A run that was taken over (its worker lost the lease but kept going) neither settles the task nor removes the
// newer attempt's result: only the current attempt settles, once, and keeps its files.
import { describe, expect, it } from 'vitest';
import { APP_DATABASES } from '../test-support/app-databases';
import { testApps, testEngine } from '../test-support/task-apps';

const openApp = testApps();

describe.each(APP_DATABASES)('a taken-over run on $label', ({ postgres }) => {
  /** A speech task submitted (credits held) on a fresh app, not yet claimed by any worker. */
  async function submitted() {
    const app = await openApp({ postgres, engines: [testEngine()], env: { ENGINES: 'tts-common=test' } });
    const user = await app.createUser(10);
    const { task } = await app.submitSpeech(user.id, 'hello there');
    return { app, user, tasks: app.system.tasks, task };
  }

  it('finishes after the newer attempt and changes nothing: one settle, the newer result kept', async () => {
    const { app, user, tasks, task } = await submitted();
    const first = await tasks.claimNext();
    expect(first?.attempts).toBe(1);
    // Another worker takes the task over while the first one is still alive.
    const second = await tasks.claim(task.id);
    expect(second?.takenOver).toBe(true);
    await tasks.run(second!.task, new AbortController().signal);
    const settled = await tasks.byId(task.id);
    expect(settled?.status).toBe('succeeded');
    const kept = JSON.parse(settled!.output!) as { media: string[] };
    // The first run ends late: it must not settle again nor delete the result of the attempt that won.
    await tasks.run(first!, new AbortController().signal);
    const after = await tasks.byId(task.id);
    expect(after?.output).toBe(settled!.output);
    const media = await app.database.db.selectFrom('media').select('id').where('task_id', '=', task.id).execute();
    expect(media.map((m) => m.id)).toEqual(kept.media);
    const state = await app.creditState(user.id);
    expect(state.ledger.filter((r) => r.reference === task.id).map((r) => r.reason)).toEqual(['task-hold']);
    expect(state.ledgerSum).toBe(state.balance);
  });

  it("finishes before the newer attempt and is refused: the newer attempt settles and its result is the task's", async () => {
    const { app, tasks, task } = await submitted();
    const first = await tasks.claimNext();
    const second = await tasks.claim(task.id);
    await tasks.run(first!, new AbortController().signal);
    expect((await tasks.byId(task.id))?.status).toBe('running');
    expect(await app.database.db.selectFrom('media').select('id').where('task_id', '=', task.id).execute()).toEqual([]);
    await tasks.run(second!.task, new AbortController().signal);
    const done = await tasks.byId(task.id);
    expect(done?.status).toBe('succeeded');
    const media = await app.database.db.selectFrom('media').select('id').where('task_id', '=', task.id).execute();
    expect(media.map((m) => m.id)).toEqual((JSON.parse(done!.output!) as { media: string[] }).media);
    expect(media).toHaveLength(1);
  });
});
