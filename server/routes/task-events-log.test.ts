// Live status streams in the request log and the server's log: written when a stream ends, with how long it was open,
// the events it sent and how it ended.
import { describe, expect, it } from 'vitest';
import { LIVE_STATUS } from '../../src/lib/product-rules';
import { createRequestLog, type RequestLog } from '../accounts/request-log';
import { createApp } from '../app';
import type { Logger } from '../log';
import { statusStreamDuration, statusStreamEvents } from '../metrics';
import { useStreams } from '../test-support/sse.fixtures';
import { testEngine, type TestTaskApp, type TestUser, testApps } from '../test-support/task-apps';

type Line = { msg: string } & Record<string, unknown>;

const openApp = testApps();
let t: TestTaskApp;
// Streams are closed before their app, after each test.
const openStream = useStreams();

/** The tasks app with its streams on an app whose log lines are kept, and its request log at hand. */
async function setUp() {
  t = await openApp({ engines: [testEngine()], env: { ENGINES: 'tts-common=test' }, start: 'system' });
  const lines: Line[] = [];
  const keep = (msg: string, fields?: Record<string, unknown>) => void lines.push({ ...fields, msg });
  const log: Logger = { debug: keep, info: keep, warn: keep, error: keep };
  const requestLog: RequestLog = createRequestLog(t.database.db, log);
  const app = createApp({ config: t.config, database: t.database, log, tasks: t.system, requestLog });
  const user = await t.createUser(10);
  return { app, lines, requestLog, user };
}

async function until(check: () => boolean) {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const closedLines = (lines: Line[]) => lines.filter((l) => l.msg === 'status stream closed');
const streamRows = async (user: TestUser) =>
  t.database.db
    .selectFrom('api_requests')
    .select(['tool', 'status', 'code', 'task_id'])
    .where('user_id', '=', user.id)
    .where('tool', '=', 'getAsyncResult/stream')
    .execute();
const histogramCount = async (stream: string, end: string) =>
  (await statusStreamDuration.get()).values.find(
    (v) => v.metricName?.endsWith('_count') && v.labels.stream === stream && v.labels.end === end,
  )?.value ?? 0;
const eventsSent = async (stream: string) =>
  (await statusStreamEvents.get()).values.find((v) => v.labels.stream === stream)?.value ?? 0;

describe('live status streams in the logs', () => {
  it('a public task stream goes into the request log when it ends; its log line has its duration and events', async () => {
    const { app, lines, requestLog, user } = await setUp();
    const [finishedBefore, eventsBefore] = [await histogramCount('public', 'finished'), await eventsSent('public')];
    const submitted = await app.request('/api/async/do_tts_common', {
      method: 'POST',
      headers: { authorization: `Bearer ${user.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Logged stream.', lan: 'en-US' }),
    });
    const taskId = ((await submitted.json()) as { data: { taskId: string } }).data.taskId;
    const s = openStream(
      await app.request(`${LIVE_STATUS.publicPath}?taskId=${taskId}`, {
        headers: { authorization: `Bearer ${user.apiKey}` },
      }),
    );
    expect(s.status).toBe(200);
    // A one-task stream ends by itself after the final status.
    await s.ended;
    await until(() => closedLines(lines).length === 1);
    const [line] = closedLines(lines);
    expect(line).toMatchObject({ stream: 'public', userId: user.id, taskId, end: 'finished' });
    expect(line!.events).toBe(s.events.length);
    expect(s.events.length).toBeGreaterThan(0);
    expect(line!.durationMs).toEqual(expect.any(Number));
    expect(await histogramCount('public', 'finished')).toBe(finishedBefore + 1);
    expect(await eventsSent('public')).toBe(eventsBefore + s.events.length);

    await requestLog.flush();
    expect(await streamRows(user)).toEqual([{ tool: 'getAsyncResult/stream', status: 200, code: 0, task_id: taskId }]);
  });

  it('an account stream is written to the request log only once it closes; a refused one at once', async () => {
    const { app, lines, requestLog, user } = await setUp();
    const headers = { authorization: `Bearer ${user.apiKey}` };
    const s = openStream(await app.request(LIVE_STATUS.publicPath, { headers }));
    expect(s.status).toBe(200);
    await requestLog.flush();
    expect(await streamRows(user)).toEqual([]);

    const refused = await app.request(`${LIVE_STATUS.publicPath}?taskId=no-such-task`, { headers });
    expect(refused.status).toBe(404);
    await requestLog.flush();
    expect((await streamRows(user)).map((r) => r.status)).toEqual([404]);

    s.close();
    await until(() => closedLines(lines).length === 1);
    expect(closedLines(lines)[0]).toMatchObject({ stream: 'public', userId: user.id, end: 'left', events: 0 });
    await requestLog.flush();
    expect((await streamRows(user)).map((r) => [r.tool, r.status]).sort()).toEqual([
      ['getAsyncResult/stream', 200],
      ['getAsyncResult/stream', 404],
    ]);
  });

  it('a playground stream ended by the drain logs how it ended (no request log: it is no public call)', async () => {
    const { app, lines, requestLog, user } = await setUp();
    const s = openStream(await app.request(LIVE_STATUS.playgroundPath, { headers: { token: user.token } }));
    expect(s.status).toBe(200);
    t.system.live.streams.close();
    await s.ended;
    await until(() => closedLines(lines).length === 1);
    expect(closedLines(lines)[0]).toMatchObject({ stream: 'playground', userId: user.id, end: 'drain', events: 0 });
    await requestLog.flush();
    expect(await streamRows(user)).toEqual([]);
  });
});
