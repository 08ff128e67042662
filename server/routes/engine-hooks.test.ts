// POST /engine-hooks/:engine/:taskId: validates what it is sent (4xx envelopes, never 5xx) and wakes only a waiting poller.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/lib/spec';
import { waitForHook } from '../engines/providers/hooks';
import { createTasksTestApp, type TasksTestApp } from '../test-support/tasks';

let t: TasksTestApp;
beforeEach(async () => {
  t = await createTasksTestApp();
});
afterEach(async () => {
  await t.close();
});

async function post(pathname: string, body: string, type = 'application/json') {
  const res = await t.app.request(pathname, { method: 'POST', headers: { 'content-type': type }, body });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: unknown } };
}

describe('POST /engine-hooks/:engine/:taskId', () => {
  it('a hook for a job someone is waiting on wakes that waiter and answers ok', async () => {
    const waiting = new AbortController();
    let woken = false;
    // The waiter would sleep a minute; only the hook can end it before the checks below.
    void waitForHook('fal/task-1', 60_000, waiting.signal).then(() => (woken = true), () => {});
    const answer = await post('/engine-hooks/fal/task-1', JSON.stringify({ request_id: 'req-1', status: 'OK', payload: { video: { url: 'https://x' } } }));
    await new Promise((r) => setImmediate(r));
    waiting.abort();
    expect(answer).toEqual({ status: 200, body: { code: 0, msg: 'ok', data: null } });
    expect(woken).toBe(true);
  });

  it('a hook for a key no one waits on answers 200 "no job waiting" (so the provider stops retrying)', async () => {
    expect(await post('/engine-hooks/fal/unknown-task', JSON.stringify({ request_id: 'r', status: 'ERROR' }))).toEqual({ status: 200, body: { code: 0, msg: 'no job waiting', data: null } });
    expect((await post('/engine-hooks/fal/unknown-task', '')).body.msg).toBe('no job waiting');
  });

  it.each([
    ['bad JSON', '{"request_id": ', 'application/json'],
    ['a JSON array', '[1, 2]', 'application/json'],
    ['a field of the wrong type', JSON.stringify({ status: 42 }), 'application/json'],
    ['an oversized field', JSON.stringify({ request_id: 'x'.repeat(500) }), 'application/json'],
  ])('a body with %s is refused with a 400 envelope, never a 5xx', async (_what, body, type) => {
    const answer = await post('/engine-hooks/fal/task-2', body, type);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: ERROR_CODES.invalidInput, data: null });
    expect(answer.body.msg.length).toBeGreaterThan(0);
  });

  it('an unsupported body type is refused with a 4xx envelope', async () => {
    const answer = await post('/engine-hooks/fal/task-2', 'status=OK', 'text/plain');
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.code).not.toBe(0);
  });

  it('an unknown engine or a malformed task id in the path is refused with a 400 envelope', async () => {
    for (const pathname of ['/engine-hooks/nobody/task-3', `/engine-hooks/fal/${'a'.repeat(101)}`, '/engine-hooks/fal/bad%20id']) {
      const answer = await post(pathname, '{}');
      expect(answer.status, pathname).toBe(400);
      expect(answer.body.code, pathname).toBe(ERROR_CODES.invalidInput);
    }
  });
});
