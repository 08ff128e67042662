// Profile and contact fields refuse control and bidirectional-override characters with a 400 naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSAFE_TEXT_MESSAGE, ERROR_CODES } from '../../src/lib/product-rules';
import { createTestApp, type TestApp } from '../test-support/app';
import { createUser, type TestUser } from '../test-support/tasks';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t, 0);
});
afterAll(() => t.close());

async function post(path: string, body: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await t.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string } };
}

const profile = (body: Record<string, string>) => post('/user/infoUpdate', body, { token: user.token });
let sender = 0;
/** Each message from its own address, so the hourly limit per sender never interferes. */
const contact = (body: Record<string, string>) =>
  post(
    '/contact/message',
    {
      name: 'Ada',
      email: `ada${++sender}@example.com`,
      topic: 'support',
      message: 'The invoice total looks wrong.',
      ...body,
    },
    { 'x-forwarded-for': `203.0.113.${sender}` },
  );

describe('POST /user/infoUpdate', () => {
  it.each([
    ['company', 'Acme\u0000Ltd'],
    ['company', 'Acme \u202Edtl'],
    ['company', 'Acme\nLtd'],
    ['company', '\u001b[2JAcme'],
    ['channel', 'a friend\u2066 told me'],
    ['channel', 'line one\r\nline two'],
  ])('refuses %s %j with a 400 naming the field', async (field, value) => {
    const res = await profile({ company: 'Acme', [field]: value });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: ERROR_CODES.invalidInput, msg: `${field}: ${UNSAFE_TEXT_MESSAGE}` });
    const row = await t.database.db
      .selectFrom('users')
      .select(['company', 'channel'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.company).not.toBe(value);
    expect(row.channel).not.toBe(value);
  });

  it('keeps names in any script and with emoji, only the override character is refused', async () => {
    expect((await profile({ company: 'Société Générale \u202E株式会社' })).status).toBe(400);
    const res = await profile({ company: 'Société Générale 株式会社 שלום 👩‍💻', channel: 'a friend' });
    expect(res.status).toBe(200);
    const row = await t.database.db
      .selectFrom('users')
      .select('company')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.company).toBe('Société Générale 株式会社 שלום 👩‍💻');
  });
});

describe('POST /contact/message', () => {
  it.each([
    ['name', 'Ada\u0000'],
    ['name', 'Ada\nBcc: someone@example.com'],
    ['name', '\u202Eada'],
    ['message', 'Please call me back \u0007 soon.'],
    ['message', 'Please see the file \u202Efdp.exe today.'],
  ])('refuses %s %j with a 400 naming the field', async (field, value) => {
    const res = await contact({ [field]: value });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(`${field}: ${UNSAFE_TEXT_MESSAGE}`);
  });

  it('keeps the line breaks and tabs of a multi-line message, but not in the one-line name', async () => {
    expect((await contact({ name: 'Ada\tLovelace' })).status).toBe(400);
    const res = await contact({ message: 'Hello,\r\n\tthe invoice total looks wrong.\nThanks' });
    expect(res.status).toBe(200);
  });
});
