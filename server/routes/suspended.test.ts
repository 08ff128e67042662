// A suspended account (npm run admin -- suspend) may sign in and read, but every call that charges, pays, redeems or
// stores a file is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvitation } from '../accounts';
import { runAdmin } from '../admin/commands';
import { ERROR_CODES, ERROR_MESSAGES } from '../../src/lib/product-rules';
import { fakeStripeEnv, startFakeStripe, type FakeStripe } from '../test-support/fake-stripe';
import { testEngine, type TestTaskApp, type TestUser, testApps } from '../test-support/task-apps';
import { silentWav } from '../test-support/wav';

const openApp = testApps({ per: 'block' });
let t: TestTaskApp;
let stripe: FakeStripe;
let user: TestUser;
let email: string;

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await openApp({
    engines: [testEngine()],
    env: { ...fakeStripeEnv(stripe), ENGINES: 'tts-common=test' },
    start: 'system',
  });
  user = await t.createUser(10);
  email = (await t.database.db.selectFrom('users').select('email').where('id', '=', user.id).executeTakeFirstOrThrow())
    .email!;
});
afterAll(() => stripe.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: number; body: { code: number; msg: string; message?: string; data: any } };

async function request(
  path: string,
  init: { headers?: Record<string, string>; body?: unknown; form?: FormData },
): Promise<Answer> {
  const headers = { ...(init.form ? {} : { 'content-type': 'application/json' }), ...init.headers };
  const res = await t.app.request(path, {
    method: 'POST',
    headers,
    body: init.form ?? JSON.stringify(init.body ?? {}),
  });
  return { status: res.status, body: await res.json() };
}
const session = (path: string, body: unknown = {}) => request(path, { headers: { token: user.token }, body });
const key = (path: string, body: unknown = {}) =>
  request(path, { headers: { authorization: `Bearer ${user.apiKey}` }, body });
const admin = (command: string) => runAdmin(t.database.db, [command, email], () => {});

function wavForm(extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(extra)) form.set(k, v);
  form.set('file', new Blob([new Uint8Array(silentWav(1, 8000))]), 'voice.wav');
  return form;
}

/** Every call that charges, grants credits, starts a payment or stores a file, as a suspended user would make it. */
async function chargingCalls(policyFields: Record<string, string>): Promise<Array<[string, Answer]>> {
  const invitation = await createInvitation(t.database.db, { credits: 500 });
  return [
    ['playground tts', await session('/api-playground/speech/v1/tts', { text: 'hello', voiceId: 'en-us-male-1' })],
    [
      'playground voice clone',
      await session('/api-playground/speech/v1/voice_clone', { voiceUrl: 'https://voices.example/me.wav' }),
    ],
    [
      'playground talking face',
      await session('/api-playground/talking_face/v1/create_task', {
        audioUrl: 'https://voices.example/me.wav',
        modelId: 'model-emma',
      }),
    ],
    [
      'playground upload',
      await request('/api-playground/file/v1/upload', {
        headers: { token: user.token },
        form: wavForm({ scene: 'audio' }),
      }),
    ],
    ['API tts', await key('/api/async/do_tts_common', { text: 'hello' })],
    ['API voice clone', await key('/api/async/voice_clone', { voiceUrl: 'https://voices.example/me.wav' })],
    ['API get_policy', await key('/api/file/v1/get_policy', { scene: 'audio' })],
    ['API upload with a policy issued before', await request('/api/file/v1/upload', { form: wavForm(policyFields) })],
    ['invitation redeem', await session('/user/invitation', { code: invitation.code })],
    ['checkout', await session('/payment/checkout', { packId: 'starter' })],
  ];
}

describe('a suspended account', () => {
  it('is refused every call that charges, pays, redeems or uploads with one code and message, still reads, and generates again once restored', async () => {
    const earlier = await key('/api/async/do_tts_common', { text: 'before the suspension' });
    const earlierTask = earlier.body.data.taskId as string;
    await t.waitForTask(earlierTask);
    const policy = (await key('/api/file/v1/get_policy', { scene: 'audio' })).body.data.fields as Record<
      string,
      string
    >;
    const before = await t.creditState(user.id);
    expect(before.balance).toBe(9);

    await admin('suspend');
    for (const [name, answer] of await chargingCalls(policy)) {
      expect({ name, status: answer.status, code: answer.body.code }).toEqual({
        name,
        status: 403,
        code: ERROR_CODES.suspended,
      });
      expect(answer.body.msg).toBe(ERROR_MESSAGES.suspended);
    }
    const after = await t.creditState(user.id);
    expect(after.balance).toBe(9);
    expect(after.ledger).toEqual(before.ledger);
    expect(await t.database.db.selectFrom('tasks').select('id').where('user_id', '=', user.id).execute()).toHaveLength(
      1,
    );
    expect(
      await t.database.db
        .selectFrom('media')
        .select('id')
        .where('user_id', '=', user.id)
        .where('task_id', 'is', null)
        .execute(),
    ).toHaveLength(0);

    // Reading stays: info (valid 1), history, results, balance, cancel and delete.
    expect((await session('/user/info')).body).toMatchObject({ code: 0, data: { valid: 1 } });
    expect((await session('/user/credits/history')).body.code).toBe(0);
    expect((await session('/api-playground/video_tools/v1/get_list')).body.data.total).toBe(1);
    expect((await session('/api-playground/video_tools/v1/poll', { taskId: earlierTask })).body.data.status).toBe(
      'succeeded',
    );
    expect((await key('/api/getAsyncResult', { taskId: earlierTask })).body.data.task.status).toBe(3);
    expect((await key('/api/remaining_credits')).body.data.remainingCredits).toBe(9);
    expect((await key('/api/cancelAsyncTask', { taskId: earlierTask })).status).toBe(409);
    expect((await session('/api-playground/video_tools/v1/delete', { taskId: earlierTask })).body.code).toBe(0);

    await admin('unsuspend');
    expect((await key('/api/async/do_tts_common', { text: 'after the restore' })).body.code).toBe(0);
    expect((await session('/payment/checkout', { packId: 'starter' })).body.code).toBe(0);
  });
});
