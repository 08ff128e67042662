// A worker whose media store stops answering stops taking jobs and says why in /readyz; it takes them again once the
// store answers.
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { createLogger } from '../log';
import { createTestApp, type TestApp } from '../test-support/app';
import { useManualWorkPause } from '../test-support/work-pause';
import { ERROR_CODES } from '../../src/lib/product-rules';

const outage = useManualWorkPause();
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The app on a fresh bucket, a pause that checks only when the test says (check()), and the queue calls it made. */
async function pausedWorker(bucket: string) {
  const store = await outage.s3(bucket);
  const app = (t = await createTestApp(store.env()));
  const calls: string[] = [];
  const queue = { pause: async () => void calls.push('pause'), resume: async () => void calls.push('resume') };
  const { lifecycle, pause } = outage.pause(queue, { ...app, queue: app.tasks.queue });
  return { app, store, lifecycle, calls, pause };
}

describe('work pause', () => {
  it('pauses job fetching while S3 is down, names it in /readyz, and resumes once it answers', async () => {
    const { app: worker, store, lifecycle, calls, pause } = await pausedWorker('pause-bucket');
    const app = createApp({
      config: worker.config,
      database: worker.database,
      log: createLogger('silent'),
      tasks: worker.tasks,
      lifecycle,
    });
    const readyz = async () => {
      const res = await app.request('/readyz');
      return {
        status: res.status,
        body: (await res.json()) as {
          code: number;
          msg: string;
          data: { status: string; paused?: Record<string, string> };
        },
      };
    };

    await pause.check();
    expect(calls).toEqual([]);
    expect((await readyz()).status).toBe(200);

    await store.stop();
    await pause.check();
    await pause.check();
    // Paused once, however many checks find the store away.
    expect(calls).toEqual(['pause']);
    expect(Object.keys(lifecycle.paused ?? {})).toEqual(['s3']);
    const paused = await readyz();
    expect(paused.status).toBe(503);
    expect(paused.body.code).toBe(ERROR_CODES.unavailable);
    expect(paused.body.data.status).toBe('paused');
    expect(paused.body.msg).toMatch(/^Not taking jobs: s3: /);

    await store.start();
    await pause.check();
    expect(calls).toEqual(['pause', 'resume']);
    expect(lifecycle.paused).toBeNull();
    expect((await readyz()).status).toBe(200);
  }, 30_000);

  it('changes nothing once the process drains', async () => {
    const { store, lifecycle, calls, pause } = await pausedWorker('pause-drain-bucket');
    lifecycle.draining = true;
    await store.stop();
    await pause.check();
    expect(calls).toEqual([]);
    expect(lifecycle.paused).toBeNull();
  }, 30_000);
});
