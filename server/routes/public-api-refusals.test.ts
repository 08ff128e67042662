// Refusals of the public API: every one in its own envelope ({code, message, msg, data}), a bad field as 10192 naming
// the rule in plain words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_MESSAGES, PUBLIC_API_CODES, RUN_OPTIONS } from '../../src/lib/product-rules';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../test-support/tasks';

let t: TasksTestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTasksTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000', BODY_LIMIT_BYTES: '2048' } });
  user = await createUser(t, 100);
});
afterAll(() => t.close());

async function call(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const res = await t.app.request(path, {
    method,
    headers: {
      authorization: `Bearer ${user.apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { code: number; message?: string; msg?: string; data: unknown },
  };
}

const illegal = (rule: string) => ({
  status: 400,
  code: PUBLIC_API_CODES.illegalParameter,
  message: `Illegal parameter: ${rule}`,
});
const { speed, pitch } = RUN_OPTIONS;

describe('public API refusals', () => {
  it.each([
    [
      'an unknown path',
      'POST',
      '/api/no_such_call',
      '{}',
      { status: 404, code: ERROR_CODES.notFound, message: ERROR_MESSAGES.notFound },
    ],
    [
      'a known path with the wrong method',
      'GET',
      '/api/remaining_credits',
      undefined,
      { status: 404, code: ERROR_CODES.notFound, message: ERROR_MESSAGES.notFound },
    ],
    [
      'a body over the cap',
      'POST',
      '/api/remaining_credits',
      JSON.stringify({ pad: 'x'.repeat(4096) }),
      {
        status: 413,
        code: ERROR_CODES.payloadTooLarge,
        message: `${ERROR_MESSAGES.payloadTooLarge}: the limit is 2048 bytes`,
      },
    ],
    [
      'a speed far out of range',
      'POST',
      '/api/async/do_tts_common',
      JSON.stringify({ text: 'hi', speed: 1e308 }),
      illegal(`speed: must be ${speed.min} to ${speed.max} words per minute`),
    ],
    [
      'a pitch that is not a number',
      'POST',
      '/api/async/do_tts_common',
      JSON.stringify({ text: 'hi', pitch: 'abc' }),
      illegal('pitch: must be a number'),
    ],
    ['a missing text', 'POST', '/api/async/do_tts_common', JSON.stringify({}), illegal('text: is required')],
    [
      'a text of the wrong type',
      'POST',
      '/api/async/do_tts_common',
      JSON.stringify({ text: 5 }),
      illegal('text: must be a string'),
    ],
    [
      'a language list of the wrong type',
      'POST',
      '/api/async/do_stt',
      JSON.stringify({ audioUrl: 'https://example.com/a.mp3', lan: 5 }),
      illegal('lan: must be a string or an array'),
    ],
    [
      'a rotate flag that is neither true nor false',
      'POST',
      '/api/webhook_secret',
      JSON.stringify({ rotate: 'yes' }),
      illegal('rotate: must be a boolean or one of "true", "false"'),
    ],
  ])('%s is refused in the public envelope', async (_name, method, path, body, expected) => {
    const { status, body: answer } = await call(method, path, body);
    expect({ status, code: answer.code, message: answer.message }).toEqual(expected);
    expect(answer.msg).toBe(answer.message);
    expect(answer.data).toBeNull();
  });

  it('keeps a pitch within its range as given (the message above is for values out of it)', async () => {
    const { status, body } = await call(
      'POST',
      '/api/async/do_tts_common',
      JSON.stringify({ text: 'hi', pitch: pitch.max + 1 }),
    );
    expect(status).toBe(400);
    expect(body.message).toBe(`Illegal parameter: pitch: must be ${pitch.min} to ${pitch.max}`);
  });
});
