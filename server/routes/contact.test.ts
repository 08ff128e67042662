// The contact form: messages are validated, stored, limited per sender and mailed to support over real SMTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT, CONTACT_MESSAGES } from '../../src/lib/product-rules';
import { createTestApp, type TestApp } from '../test-support/app';
import { startTestSmtp, type TestSmtp } from '../test-support/smtp';

const received: string[] = [];
let smtp: TestSmtp;
let t: TestApp;

beforeAll(async () => {
  smtp = await startTestSmtp((raw) => received.push(raw));
  t = await createTestApp({ SMTP_URL: smtp.url, SUPPORT_EMAIL: 'support@dreamapi.test', TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

function send(body: Record<string, string>, ip = '203.0.113.9') {
  return t.app.request('/contact/message', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    body: new URLSearchParams(body).toString(),
  });
}

const valid = {
  name: 'Ada',
  email: 'ada@example.com',
  topic: 'sales',
  message: 'We would like volume pricing for video.',
};

describe('POST /contact/message', () => {
  it('stores the message and mails it to the support inbox with a reply-to of the sender', async () => {
    const res = await send(valid);
    const body = await res.json();
    expect(body).toMatchObject({ code: 0, msg: CONTACT_MESSAGES.sent, data: { mailed: true } });
    const row = await t.database.db
      .selectFrom('contact_messages')
      .selectAll()
      .where('id', '=', body.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'Ada', email: 'ada@example.com', topic: 'sales' });
    expect(row.mailed_at).not.toBeNull();
    const mail = received.at(-1) ?? '';
    expect(mail).toContain('To: support@dreamapi.test');
    expect(mail).toContain('Reply-To: Ada <ada@example.com>');
    expect(mail).toContain('We would like volume pricing for video.');
  });

  it.each([
    [{ ...valid, name: '  ' }, `name: ${CONTACT_MESSAGES.nameRequired}`],
    [{ ...valid, email: 'not-an-email' }, 'email: Invalid email address'],
    [{ ...valid, message: 'hi' }, `message: ${CONTACT_MESSAGES.messageTooShort}`],
    [{ ...valid, message: 'x'.repeat(CONTACT.messageMaxLength + 1) }, `message: ${CONTACT_MESSAGES.messageTooLong}`],
    [{ ...valid, topic: 'lottery' }, 'topic:'],
  ])('refuses %o with a 400 naming the field', async (body, message) => {
    const res = await send(body, '198.51.100.1');
    expect(res.status).toBe(400);
    expect((await res.json()).msg).toContain(message);
  });

  it(`accepts ${CONTACT.hourlyLimit} messages an hour from one sender, then answers 429 with Retry-After`, async () => {
    const sender = { ...valid, email: 'busy@example.com' };
    for (let i = 0; i < CONTACT.hourlyLimit; i++) expect((await send(sender, '192.0.2.7')).status).toBe(200);
    const refused = await send(sender, '192.0.2.7');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3600');
    expect((await refused.json()).msg).toBe(CONTACT_MESSAGES.tooMany);
  });

  it('keeps the message when no mail server is configured', async () => {
    const bare = await createTestApp();
    const res = await bare.app.request('/contact/message', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(valid),
    });
    expect((await res.json()).data.mailed).toBe(false);
    const count = await bare.database.db
      .selectFrom('contact_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    await bare.close();
  });
});
