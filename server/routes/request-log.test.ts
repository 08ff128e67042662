// The request log: public API calls with tool, status, credits, task id and key, paging, batching and pruning
// (usage.test.ts has the usage report).
import { describe, expect, it, vi } from 'vitest';
import { REQUEST_LOG } from '../../src/lib/product-rules';
import { createRequestLog } from '../accounts/request-log';
import { createLogger } from '../log';
import { createUser, waitForTask } from '../test-support/tasks';
import { appAndUserEachTest } from '../test-support/user-app';

const fresh = appAndUserEachTest(100);
const call = fresh.post;
const api = (path: string, body: unknown) =>
  call(`/api${path}`, body, { authorization: `Bearer ${fresh.user.apiKey}` });
/** A database handle that counts the rows of each insert it runs. */
function countingInserts() {
  const inserts: number[] = [];
  const db = fresh.t.database.db.withPlugin({
    transformQuery: (args) => {
      if (args.node.kind === 'InsertQueryNode')
        inserts.push((args.node.values as unknown as { values: unknown[] }).values.length);
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  return { db, inserts };
}
const nextTurn = () => new Promise((r) => setImmediate(r));

/** A free remaining_credits call by the test's user, as the log records it (without its time). */
const creditsCall = () => ({
  user_id: fresh.user.id,
  key_id: null,
  tool: 'remaining_credits',
  status: 200,
  code: 0,
  credits: 0,
  task_id: null,
});

describe('request log', () => {
  it('records each public API call with tool, status, code, credits held and task id, newest first', async () => {
    const submitted = await api('/async/do_tts_common', { text: 'Hello there', audioId: 'en-us-female-1' });
    const taskId = submitted.body.data.taskId as string;
    await waitForTask(fresh.t, taskId);
    await api('/getAsyncResult', { taskId });
    await api('/getAsyncResult', { taskId: 'no-such-task' });
    await api('/async/do_tts_common', { text: '' });
    // The playground and the dashboard are not API calls.
    await call('/api-playground/video_tools/v1/get_list', {});
    // No wait: reading the page writes what this process still holds first.

    const log = await call('/apply/requests', {});
    expect(log.status).toBe(200);
    expect(log.body.data.total).toBe(4);
    expect(
      log.body.data.list.map(
        (r: {
          tool: string;
          status: number;
          code: number;
          credits: number;
          taskId: string | null;
          keyName: string;
        }) => [r.tool, r.status, r.code, r.credits, r.taskId, r.keyName],
      ),
    ).toEqual([
      ['async/do_tts_common', 400, 10192, 0, null, 'Default key'],
      ['getAsyncResult', 404, 40004, 0, 'no-such-task', 'Default key'],
      ['getAsyncResult', 200, 0, 0, taskId, 'Default key'],
      ['async/do_tts_common', 200, 0, 1, taskId, 'Default key'],
    ]);
    expect(log.body.data.list[0].createdAt).toBeGreaterThan(0);
  });

  it('pages, keeps users apart, and validates the page', async () => {
    for (let i = 0; i < 5; i++) await api('/remaining_credits', {});
    const other = await createUser(fresh.t, 0);
    await call('/api/remaining_credits', {}, { authorization: `Bearer ${other.apiKey}` });
    const page2 = (await call('/apply/requests', { page: 2, pageSize: 2 })).body.data;
    expect(page2).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(page2.list).toHaveLength(2);
    expect((await call('/apply/requests', {}, { token: other.token })).body.data.total).toBe(1);
    expect((await call('/apply/requests', { pageSize: REQUEST_LOG.maxPageSize + 1 })).body.msg).toBe(
      `pageSize: must be at most ${REQUEST_LOG.maxPageSize}`,
    );
    expect((await call('/apply/requests', {}, {})).status).toBe(401);
  });

  it('writes calls answered over many turns in one insert, REQUEST_LOG.writeEveryMs after the first, or at once when a batch is full', async () => {
    const { db, inserts } = countingInserts();
    const log = createRequestLog(db, createLogger('silent'));
    const call = { ...creditsCall(), created_at: Date.now() };
    for (let i = 0; i < 5; i++) {
      log.record(call);
      await nextTurn();
    }
    // Each turn's call did not cost a commit of its own…
    expect(inserts).toEqual([]);
    // …they are written together when the interval ends.
    await vi.waitFor(() => expect(inserts).toEqual([5]), { timeout: REQUEST_LOG.writeEveryMs + 5_000 });
    // A full batch does not wait for the interval.
    for (let i = 0; i < REQUEST_LOG.maxBatchRows; i++) log.record(call);
    await nextTurn();
    expect(inserts).toEqual([5, REQUEST_LOG.maxBatchRows]);
    await log.flush();
    expect(
      (await fresh.t.database.db.selectFrom('api_requests').select('id').where('user_id', '=', fresh.user.id).execute())
        .length,
    ).toBe(5 + REQUEST_LOG.maxBatchRows);
  });

  it('writes calls recorded together in one insert, and prunes calls past the retention', async () => {
    let now = Date.UTC(2025, 0, 1);
    const { db, inserts } = countingInserts();
    const log = createRequestLog(db, createLogger('silent'), () => now);
    const call = creditsCall();
    for (let i = 0; i < 3; i++) log.record({ ...call, created_at: now });
    await log.flush();
    expect(inserts).toEqual([3]);
    // A burst larger than one insert may carry is written in slices, none lost.
    inserts.length = 0;
    for (let i = 0; i < REQUEST_LOG.maxBatchRows * 2 + 1; i++) log.record({ ...call, created_at: now });
    await log.flush();
    expect(inserts).toEqual([REQUEST_LOG.maxBatchRows, REQUEST_LOG.maxBatchRows, 1]);
    expect(
      (await fresh.t.database.db.selectFrom('api_requests').select('id').where('user_id', '=', fresh.user.id).execute())
        .length,
    ).toBe(REQUEST_LOG.maxBatchRows * 2 + 4);
    now += REQUEST_LOG.retentionMs + REQUEST_LOG.pruneEveryMs;
    log.record({ ...call, created_at: now });
    await log.flush();
    const left = await fresh.t.database.db
      .selectFrom('api_requests')
      .select('created_at')
      .where('user_id', '=', fresh.user.id)
      .execute();
    expect(left.map((r) => Number(r.created_at))).toEqual([now]);
  });
});
