// Live status of a restart's recovery: tasks a crash left running, queued again or failed, reach the streams at once.
import { describe, expect, it } from 'vitest';
import { testApps, testEngine, type TestTaskApp } from '../test-support/task-apps';
import type { FeedEvent } from './status-feed';

const openApp = testApps();
let t: TestTaskApp;

describe('recovery on the live status feed', () => {
  it('recover() publishes each task it queues again (and each it fails): a stream shows both without a heartbeat', async () => {
    t = await openApp({ engines: [testEngine()], env: { ENGINES: 'tts-common=test' } });
    const user = await t.createUser(5);
    const submit = async (text: string) => (await t.submitSpeech(user.id, text)).task.id;
    const [resumed, exhausted] = [await submit('a'), await submit('b')];
    const db = t.database.db;
    // As a crash leaves them: running, one with attempts to spare, one with none.
    await db.updateTable('tasks').set({ status: 'running', attempts: 1 }).where('id', '=', resumed).execute();
    await db.updateTable('tasks').set({ status: 'running', attempts: 3 }).where('id', '=', exhausted).execute();

    const heard: FeedEvent[] = [];
    const unsubscribe = t.system.live.feed.subscribe(user.id, (event) => heard.push(event));
    const watch = t.system.live.watch({ userId: user.id });
    try {
      // The stream's first read shows both running.
      const first = (await watch.changes())!;
      expect(first.map((ch) => [ch.task.id, ch.task.status]).sort()).toEqual(
        [
          [resumed, 'running'],
          [exhausted, 'running'],
        ].sort(),
      );

      expect(await t.system.tasks.recover(3)).toEqual({ resumed: 1, failed: 1 });
      expect(heard).toContainEqual({ kind: 'task', taskId: resumed });
      expect(heard).toContainEqual({ kind: 'task', taskId: exhausted });

      // Woken by the notices, not by the heartbeat: no quiet read comes before both new states.
      const shown = new Map<string, string>();
      while (shown.get(resumed) !== 'queued' || shown.get(exhausted) !== 'failed') {
        const changes = await watch.changes();
        expect(changes, 'a heartbeat came before the recovered tasks were shown').not.toEqual([]);
        for (const ch of changes!) shown.set(ch.task.id, ch.task.status);
      }
    } finally {
      watch.close();
      unsubscribe();
    }
  });
});
