// Stores a contact-form message, limits how often one sender may write, and mails it to the support inbox.
import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import { CONTACT, CONTACT_MESSAGES, type ContactTopic, ERROR_CODES } from '../../src/lib/product-rules';
import type { Config } from '../config';
import type { Schema } from '../db';
import { AppError } from '../http/errors';
import type { Logger } from '../log';

export interface ContactMessage {
  name: string;
  email: string;
  topic: ContactTopic;
  message: string;
  ip: string;
  userId: string | null;
}

export type SupportMailer = (message: ContactMessage) => Promise<void>;

/** Mails messages to SUPPORT_EMAIL over SMTP_URL; null when either is unset (messages stay in the database). */
export function createSupportMailer(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'supportEmail'>,
): SupportMailer | null {
  if (!config.smtpUrl || !config.supportEmail) return null;
  const transport = nodemailer.createTransport(config.smtpUrl);
  const to = config.supportEmail;
  return async (m) => {
    await transport.sendMail({
      from: config.mailFrom,
      to,
      replyTo: `${m.name} <${m.email}>`,
      subject: `[${m.topic}] Contact form: ${m.name}`,
      text: `${m.message}\n\n— ${m.name} <${m.email}>${m.userId ? `, user ${m.userId}` : ''}\n`,
    });
  };
}

export async function submitContactMessage(
  db: Kysely<Schema>,
  mailer: SupportMailer | null,
  log: Logger,
  message: ContactMessage,
): Promise<{ id: number; mailed: boolean }> {
  const hourAgo = Date.now() - CONTACT.windowMs;
  const recent = await db
    .selectFrom('contact_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('created_at', '>', hourAgo)
    .where((eb) => eb.or([eb('email', '=', message.email), eb('ip', '=', message.ip)]))
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= CONTACT.hourlyLimit) {
    throw new AppError(429, ERROR_CODES.rateLimited, CONTACT_MESSAGES.tooMany, {
      'Retry-After': String(CONTACT.windowMs / 1000),
    });
  }
  // Stored first, so a mail failure never loses the message; mailed_at records a successful hand-over.
  const row = await db
    .insertInto('contact_messages')
    .values({
      name: message.name,
      email: message.email,
      topic: message.topic,
      message: message.message,
      ip: message.ip,
      user_id: message.userId,
      mailed_at: null,
      created_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  if (!mailer) return { id, mailed: false };
  try {
    await mailer(message);
    await db.updateTable('contact_messages').set({ mailed_at: Date.now() }).where('id', '=', id).execute();
    return { id, mailed: true };
  } catch (error) {
    log.warn('contact message stored but not mailed', { id, error: String(error) });
    return { id, mailed: false };
  }
}
