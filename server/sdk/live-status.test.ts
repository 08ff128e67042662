// The SDK's live status against the app on a real connection: stream() yields each change, wait() streams and falls
// back to polling.
import { afterEach, describe, expect, it } from 'vitest';
import { createDreamApiClient, StreamRefused, type DreamApiClient, type TaskResult } from '../../src/lib/sdk/index';
import { LIVE_STATUS } from '../../src/lib/product-rules';
import { listen, type Listening } from '../test-support/listen';
import { createTasksTestApp, createUser, testEngine, type TasksTestApp } from '../test-support/tasks';

let t: TasksTestApp | undefined;
let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  await t?.close();
  t = server = undefined;
});

function gated() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { gate, release };
}

/** The app on a real port, with a task engine held by `gate`; `requests` records the paths the SDK called. */
async function setUp(gate?: Promise<void>) {
  t = await createTasksTestApp({
    engines: [testEngine({ name: 'test', progress: 30, gate })],
    env: { ENGINES: 'tts-common=test' },
  });
  await t.system.start();
  server = await listen(t.app.fetch);
  const user = await createUser(t, 20);
  const requests: string[] = [];
  const client: DreamApiClient = createDreamApiClient({
    apiKey: user.apiKey,
    baseUrl: `http://127.0.0.1:${server.port}`,
    fetch: (input, init) => {
      requests.push(new URL(String(input)).pathname);
      return fetch(input, init);
    },
  });
  return { client, requests, user };
}

describe('SDK live status', () => {
  it('stream() yields the task as it goes from queued to its progress to succeeded, then ends', async () => {
    const { gate, release } = gated();
    const { client } = await setUp(gate);
    const { taskId } = await client.ttsCommon({ text: 'Streaming from the SDK', audioId: 'en-us-female-1' });
    const seen: TaskResult[] = [];
    for await (const result of client.stream(taskId)) {
      seen.push(result);
      if (result.task.progress === 30) release();
    }
    expect(seen.map((r) => r.task.taskId)).toEqual(seen.map(() => taskId));
    expect(seen.some((r) => r.task.statusName === 'running' && r.task.progress === 30)).toBe(true);
    expect(seen.at(-1)!.task.statusName).toBe('succeeded');
    expect(seen.at(-1)!.audios).toHaveLength(1);
  });

  it('wait() resolves through the stream without polling getAsyncResult', async () => {
    const { client, requests } = await setUp();
    const { taskId } = await client.ttsCommon({ text: 'Waiting from the SDK', audioId: 'en-us-female-1' });
    const result = await client.wait(taskId);
    expect(result.task.statusName).toBe('succeeded');
    expect(requests).toContain(LIVE_STATUS.publicPath);
    expect(requests).not.toContain('/api/getAsyncResult');
  });

  it('wait() falls back to polling when the stream is refused (all streams of the account in use)', async () => {
    const { gate, release } = gated();
    const { client, requests, user } = await setUp(gate);
    const { taskId } = await client.ttsCommon({ text: 'Polling from the SDK', audioId: 'en-us-female-1' });
    const holders = Array.from({ length: LIVE_STATUS.maxStreamsPerAccount }, () =>
      t!.system.live.streams.enter(user.id, () => undefined),
    );
    expect(holders.every((h) => typeof h === 'object')).toBe(true);
    const waiting = client.wait(taskId, { intervalMs: 50 });
    await new Promise((r) => setTimeout(r, 300));
    release();
    expect((await waiting).task.statusName).toBe('succeeded');
    expect(requests).toContain('/api/getAsyncResult');
  });

  it('a stream of an unknown task is refused with its status, and wait() does not poll for it', async () => {
    const { client } = await setUp();
    await expect(client.stream('no-such-task').next()).rejects.toMatchObject({ name: 'StreamRefused', status: 404 });
    await expect(client.wait('no-such-task')).rejects.toBeInstanceOf(StreamRefused);
  });
});
