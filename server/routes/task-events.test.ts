// Live status streams (SSE) through the app: account and task streams, view shapes, ids and resume, the cap, the drain,
// refusals.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, LIVE_STATUS, LIVE_STATUS_MESSAGES, PUBLIC_API_CODES } from '../../src/lib/product-rules';
import { dataOf, useStreams } from '../test-support/sse.fixtures';
import { APP_DATABASES } from '../test-support/app-databases';
import { testEngine, type TestTaskApp, type TestUser, testApps } from '../test-support/task-apps';

const openApp = testApps();
let t: TestTaskApp;
// Streams are closed before their app, after each test.
const openStream = useStreams();

function gated() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { gate, release };
}

async function until(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function stream(path: string, headers: Record<string, string>) {
  return openStream(await t.app.request(path, { headers }));
}

async function submitTts(user: TestUser, text = 'hello there') {
  const res = await t.app.request('/api-playground/speech/v1/tts', {
    method: 'POST',
    headers: { 'content-type': 'application/json', token: user.token },
    body: JSON.stringify({ text, voiceId: 'en-us-female-1' }),
  });
  const body = (await res.json()) as { code: number; data: { taskId: string } };
  expect(body.code).toBe(0);
  return body.data.taskId;
}

describe.each(APP_DATABASES)('live status streams on $label', ({ postgres }) => {
  async function app(gate?: Promise<void>) {
    // On PostgreSQL the feed listens on a session of its own, which needs the database's URL.
    const env = { ENGINES: 'tts-common=test', ...(postgres ? { DATABASE_URL: process.env.TEST_DATABASE_URL! } : {}) };
    t = await openApp({ postgres, engines: [testEngine({ name: 'test', progress: 40, gate })], env, start: 'system' });
    return t;
  }

  it('the playground account stream carries a run from queued through its progress to succeeded, each event with an id', async () => {
    const { gate, release } = gated();
    await app(gate);
    const user = await t.createUser(10);
    const s = await stream(LIVE_STATUS.playgroundPath, { token: user.token, 'accept-encoding': 'gzip, br' });
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // Not buffered by the compression middleware: events must arrive as they are written.
    expect(s.headers.get('content-encoding')).toBeNull();
    const taskId = await submitTts(user);
    await s.until((events) => events.some((e) => dataOf(e).progress === 40));
    release();
    await s.until((events) => events.some((e) => dataOf(e).status === 'succeeded'));
    const mine = s.events.filter((e) => dataOf(e).taskId === taskId);
    expect(mine.every((e) => e.event === LIVE_STATUS.event && /^\d+$/.test(e.id ?? ''))).toBe(true);
    expect(mine.map((e) => dataOf(e).status)).toContain('running');
    // The same view the poll answers.
    const poll = await t.app.request('/api-playground/video_tools/v1/poll', {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: user.token },
      body: JSON.stringify({ taskId }),
    });
    expect(Object.keys(dataOf(mine.at(-1)!)).sort()).toEqual(
      Object.keys(((await poll.json()) as { data: object }).data).sort(),
    );
  });

  it('the public task stream sends the getAsyncResult view, ends after the final status, and resumes with its current state', async () => {
    const { gate, release } = gated();
    await app(gate);
    const user = await t.createUser(10);
    const taskId = await submitTts(user);
    const auth = { authorization: `Bearer ${user.apiKey}` };
    const s = await stream(`${LIVE_STATUS.publicPath}?taskId=${taskId}`, auth);
    expect(s.status).toBe(200);
    const first = await s.until((events) => events.length > 0);
    expect(dataOf<{ task: { taskId: string; statusName: string } }>(first[0]!).task.taskId).toBe(taskId);
    release();
    await s.ended;
    const last = dataOf<{ task: { status: number; statusName: string }; audios: unknown[] }>(s.events.at(-1)!);
    expect(last.task.statusName).toBe('succeeded');
    expect(last.audios).toHaveLength(1);
    // A reconnect with Last-Event-ID is answered with the task's state first, then the end (it is final).
    const again = await stream(`${LIVE_STATUS.publicPath}?taskId=${taskId}`, {
      ...auth,
      'last-event-id': s.events.at(-1)!.id!,
    });
    await again.ended;
    expect(again.events.map((e) => dataOf<{ task: { statusName: string } }>(e).task.statusName)).toEqual(['succeeded']);
  });

  it('an account stream resumed with Last-Event-ID sends what changed while it was away', async () => {
    await app();
    const user = await t.createUser(10);
    const s = await stream(LIVE_STATUS.playgroundPath, { token: user.token });
    const first = await submitTts(user, 'first one');
    await s.until((events) => events.some((e) => dataOf(e).taskId === first && dataOf(e).status === 'succeeded'));
    s.close();
    const lastId = s.events.at(-1)!.id!;
    const second = await submitTts(user, 'second one');
    await t.waitForTask(second);
    const resumed = await stream(LIVE_STATUS.playgroundPath, { token: user.token, 'last-event-id': lastId });
    await resumed.until((events) =>
      events.some((e) => dataOf(e).taskId === second && dataOf(e).status === 'succeeded'),
    );
  });

  it(`refuses the stream over ${LIVE_STATUS.maxStreamsPerAccount} per account with 429, and ends them all on drain`, async () => {
    await app();
    const user = await t.createUser(10);
    const streams = await Promise.all(
      Array.from({ length: LIVE_STATUS.maxStreamsPerAccount }, () =>
        stream(LIVE_STATUS.playgroundPath, { token: user.token }),
      ),
    );
    expect(streams.map((s) => s.status)).toEqual(streams.map(() => 200));
    const refused = await t.app.request(LIVE_STATUS.publicPath, {
      headers: { authorization: `Bearer ${user.apiKey}` },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect(((await refused.json()) as { message: string }).message).toBe(LIVE_STATUS_MESSAGES.tooManyStreams);
    // Another account is not held to this one's streams.
    const other = await t.createUser(10);
    expect((await stream(LIVE_STATUS.playgroundPath, { token: other.token })).status).toBe(200);
    t.system.live.streams.close();
    await Promise.all(streams.map((s) => s.ended));
    const late = await t.app.request(LIVE_STATUS.playgroundPath, { headers: { token: user.token } });
    expect(late.status).toBe(503);
  });

  // PostgreSQL alone has a listener to cut (SQLite publishes in process), so the test exists only there.
  if (postgres) {
    it('hears NOTIFY on a listener of its own, and after that session is cut it reconnects and re-reads', async () => {
      const { gate, release } = gated();
      await app(gate);
      expect(t.system.live.feed.kind).toBe('postgres');
      const user = await t.createUser(10);
      const s = await stream(LIVE_STATUS.playgroundPath, { token: user.token });
      const taskId = await submitTts(user);
      await s.until((events) => events.some((e) => dataOf(e).progress === 40));
      await until(() => t.system.live.feed.connected());
      const cut = await sql<{ n: number }>`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where application_name = 'dreamapi-status-feed' and pid <> pg_backend_pid()`.execute(t.database.db);
      expect(cut.rows[0]!.n).toBeGreaterThan(0);
      // Finished while the listener is away: its notice is lost, the re-read after the reconnect brings it.
      release();
      await t.waitForTask(taskId);
      await s.until((events) => events.some((e) => dataOf(e).taskId === taskId && dataOf(e).status === 'succeeded'));
      await until(() => t.system.live.feed.connected());
    });
  }

  it('refuses a bad taskId, a task of another account and a caller without credentials', async () => {
    await app();
    const user = await t.createUser(10);
    const other = await t.createUser(10);
    const taskId = await submitTts(other);
    const bad = await t.app.request(`${LIVE_STATUS.publicPath}?taskId=${'x'.repeat(65)}`, {
      headers: { authorization: `Bearer ${user.apiKey}` },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: number; message: string }).code).toBe(PUBLIC_API_CODES.illegalParameter);
    const foreign = await t.app.request(`${LIVE_STATUS.playgroundPath}?taskId=${taskId}`, {
      headers: { token: user.token },
    });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { code: number }).code).toBe(ERROR_CODES.notFound);
    expect((await t.app.request(LIVE_STATUS.publicPath)).status).toBe(401);
    expect((await t.app.request(LIVE_STATUS.playgroundPath)).status).toBe(401);
  });
});
