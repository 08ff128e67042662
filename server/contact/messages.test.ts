// Contact messages at unit level: stored before mailing, limited per address or IP within the hour, mailed over real
// SMTP.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTACT, CONTACT_MESSAGES, ERROR_CODES } from '../../src/lib/product-rules';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import { AppError } from '../http/errors';
import type { Logger } from '../log';
import { startTestSmtp, type TestSmtp } from '../test-support/smtp';
import { createSupportMailer, submitContactMessage, type ContactMessage } from './messages';

const received: string[] = [];
let smtp: TestSmtp;
let smtpUrl: string;
let database: AppDatabase;
let warnings: Array<{ msg: string; fields?: Record<string, unknown> }>;

/** A logger that keeps what it is told, so the test can read the warning a failed hand-over leaves. */
function recordingLogger(): Logger {
  const ignore = () => undefined;
  return { debug: ignore, info: ignore, error: ignore, warn: (msg, fields) => warnings.push({ msg, fields }) };
}

beforeAll(async () => {
  smtp = await startTestSmtp((raw) => received.push(raw));
  smtpUrl = smtp.url;
});
afterAll(() => smtp.close());

beforeEach(async () => {
  database = await openDatabase('sqlite::memory:');
  await migrateToLatest(database);
  warnings = [];
});
afterEach(() => database.close());

const base: ContactMessage = {
  name: 'Ada',
  email: 'ada@example.com',
  topic: 'billing',
  message: 'Please send an invoice for March.',
  ip: '203.0.113.5',
  userId: null,
};

const rows = () => database.db.selectFrom('contact_messages').selectAll().orderBy('id').execute();

async function refusal(message: ContactMessage): Promise<AppError> {
  const error = await submitContactMessage(database.db, null, recordingLogger(), message).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('createSupportMailer', () => {
  it('is null unless both an SMTP URL and a support inbox are set', () => {
    expect(createSupportMailer({ smtpUrl: null, mailFrom: 'a@b.c', supportEmail: 'support@example.com' })).toBeNull();
    expect(createSupportMailer({ smtpUrl, mailFrom: 'a@b.c', supportEmail: null })).toBeNull();
    expect(createSupportMailer({ smtpUrl, mailFrom: 'a@b.c', supportEmail: 'support@example.com' })).toBeTypeOf(
      'function',
    );
  });
});

describe('submitContactMessage', () => {
  it('stores every field, and without a mailer says it was not mailed', async () => {
    const result = await submitContactMessage(database.db, null, recordingLogger(), { ...base, userId: 'user-1' });
    expect(result.mailed).toBe(false);
    const [row] = await rows();
    expect(row).toMatchObject({
      id: result.id,
      name: 'Ada',
      email: 'ada@example.com',
      topic: 'billing',
      message: base.message,
      ip: '203.0.113.5',
      user_id: 'user-1',
      mailed_at: null,
    });
    expect(Number(row!.created_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('mails the topic, the sender as reply-to and the user id to the support inbox, and records the hand-over', async () => {
    const mailer = createSupportMailer({
      smtpUrl,
      mailFrom: 'site@dreamapi.test',
      supportEmail: 'support@dreamapi.test',
    })!;
    const result = await submitContactMessage(database.db, mailer, recordingLogger(), { ...base, userId: 'user-42' });
    expect(result.mailed).toBe(true);
    // Quoted-printable bodies wrap long lines with a trailing '='; undo that to read the text.
    const mail = (received.at(-1) ?? '').replace(/=\r?\n/g, '');
    expect(mail).toContain('To: support@dreamapi.test');
    expect(mail).toContain('From: site@dreamapi.test');
    expect(mail).toContain('Reply-To: Ada <ada@example.com>');
    expect(mail).toContain('Subject: [billing] Contact form: Ada');
    expect(mail).toContain('Please send an invoice for March.');
    expect(mail).toContain('user user-42');
    const [row] = await rows();
    expect(row!.mailed_at).not.toBeNull();
  });

  it('keeps the message and logs a warning when the mail server cannot be reached', async () => {
    const mailer = createSupportMailer({
      smtpUrl: 'smtp://127.0.0.1:1',
      mailFrom: 'site@dreamapi.test',
      supportEmail: 'support@dreamapi.test',
    })!;
    const result = await submitContactMessage(database.db, mailer, recordingLogger(), base);
    expect(result.mailed).toBe(false);
    const [row] = await rows();
    expect(row).toMatchObject({ id: result.id, mailed_at: null, message: base.message });
    expect(warnings).toEqual([
      { msg: 'contact message stored but not mailed', fields: expect.objectContaining({ id: result.id }) },
    ]);
  });

  it(`refuses the message after ${CONTACT.hourlyLimit} from one IP, even under different addresses, and stores nothing more`, async () => {
    for (let i = 0; i < CONTACT.hourlyLimit; i++)
      await submitContactMessage(database.db, null, recordingLogger(), { ...base, email: `sender${i}@example.com` });
    const error = await refusal({ ...base, email: 'fresh@example.com' });
    expect([error.status, error.code, error.message]).toEqual([429, ERROR_CODES.rateLimited, CONTACT_MESSAGES.tooMany]);
    expect(error.headers).toEqual({ 'Retry-After': '3600' });
    expect(await rows()).toHaveLength(CONTACT.hourlyLimit);
  });

  it('refuses one address writing from many IPs just the same', async () => {
    for (let i = 0; i < CONTACT.hourlyLimit; i++)
      await submitContactMessage(database.db, null, recordingLogger(), { ...base, ip: `198.51.100.${i}` });
    expect((await refusal({ ...base, ip: '192.0.2.200' })).status).toBe(429);
    // Someone else, from elsewhere, is not held back by that sender.
    await expect(
      submitContactMessage(database.db, null, recordingLogger(), {
        ...base,
        email: 'other@example.com',
        ip: '192.0.2.201',
      }),
    ).resolves.toHaveProperty('mailed', false);
  });

  it('counts only the last hour', async () => {
    const twoHoursAgo = Date.now() - 2 * 3_600_000;
    for (let i = 0; i < CONTACT.hourlyLimit; i++) {
      await database.db
        .insertInto('contact_messages')
        .values({
          ...{ name: 'Ada', email: base.email, topic: 'other', message: 'old message', ip: base.ip, user_id: null },
          mailed_at: null,
          created_at: twoHoursAgo,
        })
        .execute();
    }
    await expect(submitContactMessage(database.db, null, recordingLogger(), base)).resolves.toHaveProperty(
      'mailed',
      false,
    );
    expect(await rows()).toHaveLength(CONTACT.hourlyLimit + 1);
  });
});
