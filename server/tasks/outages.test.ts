// Outages fail nothing: a finished output waits on disk while S3 is down and the task succeeds on its first attempt;
// the API answers 503 with Retry-After while PostgreSQL is cut off.
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from '../db/test-support/engines';
import { createTestApp, type TestApp } from '../test-support/app';
import { postgresSkipReason } from '../test-support/instances';
import { startTestS3, type TestS3 } from '../test-support/s3';
import { createTasksTestApp, createUser, testEngine, waitForTask, type TasksTestApp } from '../test-support/tasks';
import { startTcpProxy, type TcpProxy } from '../test-support/tcp-proxy';
import { ERROR_CODES, OPERATIONS_MESSAGES, OUTAGES } from '../../src/lib/product-rules';

const adminUrl = process.env.TEST_DATABASE_URL;
const pgSkip = await postgresSkipReason(adminUrl);
if (pgSkip) console.warn(`database outage test skipped: ${pgSkip}`);

let s3: TestS3 | undefined;
let tasks: TasksTestApp | undefined;
let api: TestApp | undefined;
let proxy: TcpProxy | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

afterEach(async () => {
  await tasks?.close();
  await api?.close();
  await proxy?.close();
  await dropDatabase?.();
  await s3?.close();
  s3 = tasks = api = proxy = dropDatabase = undefined;
});

const waitingOutputs = () => readdirSync(tmpdir()).filter((name) => name.startsWith('outputs-'));

describe('outages', () => {
  it('a run finished while S3 is down keeps its output on disk and stores it once S3 is back: succeeded on attempt 1', async () => {
    s3 = await startTestS3('outage-bucket');
    tasks = await createTasksTestApp({
      engines: [testEngine()],
      env: { ...s3.env('outage'), ENGINES: 'tts-common=test' },
    });
    const user = await createUser(tasks, 10);
    await s3.stop();
    const before = waitingOutputs().length;
    await tasks.system.start();
    const { task } = await tasks.system.tasks.submit({
      userId: user.id,
      feature: 'tts-common',
      input: { text: 'made while storage is away', voice: 'en-us-male-1' },
      source: 'api',
    });
    // The engine is done within moments; its output then waits under the work folder for the store.
    const deadline = Date.now() + 15_000;
    while (waitingOutputs().length <= before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(waitingOutputs().length).toBeGreaterThan(before);
    // Longer than every S3 request's own retries: the run waits instead of failing its attempt.
    await new Promise((r) => setTimeout(r, 3000));
    const waiting = await tasks.system.tasks.byId(task.id);
    expect(waiting).toMatchObject({ status: 'running', attempts: 1 });

    await s3.start();
    const done = await waitForTask(tasks, task.id, 30_000);
    expect(done).toMatchObject({ status: 'succeeded', attempts: 1 });
    const [mediaId] = (JSON.parse(done.output!) as { media: string[] }).media;
    const row = await tasks.system.media.byId(mediaId!);
    expect(row).toBeDefined();
  }, 60_000);

  it.skipIf(pgSkip !== null)(
    'the API answers 503 with Retry-After while PostgreSQL is cut off, and serves again once it is back',
    async () => {
      const fresh = await freshPostgresDatabase(adminUrl!, 'outage');
      dropDatabase = fresh.drop;
      const target = new URL(fresh.url);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      api = await createTestApp({ DATABASE_URL: proxy.url(fresh.url) });
      const credits = () =>
        api!.app.request('/api/remaining_credits', {
          method: 'POST',
          headers: { authorization: 'Bearer sk-not-a-key' },
        });
      expect((await credits()).status).toBe(401);

      proxy.cut();
      const down = await credits();
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe(String(OUTAGES.databaseRetryAfterS));
      expect(await down.json()).toMatchObject({
        code: ERROR_CODES.unavailable,
        msg: OPERATIONS_MESSAGES.databaseUnavailable,
      });

      proxy.restore();
      expect((await credits()).status).toBe(401);
    },
    60_000,
  );
});
