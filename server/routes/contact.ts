// POST /contact/message: the contact form on /contact-us, stored and mailed to support.
import { Hono } from 'hono';
import { z } from 'zod';
import { CONTACT, CONTACT_MESSAGES, MESSAGES, UNSAFE_TEXT_MESSAGE, isSafeText } from '../../src/lib/product-rules';
import { authenticate } from '../accounts';
import { createSupportMailer, submitContactMessage } from '../contact/messages';
import type { AppDeps } from './deps';
import { envelope } from '../http/errors';
import { clientIp } from '../http/client-ip';
import { validBody } from '../http/input';
import { bodyCap } from './body-cap';

const contactBody = z.object({
  name: z
    .string({ error: CONTACT_MESSAGES.nameRequired })
    .trim()
    .min(1, CONTACT_MESSAGES.nameRequired)
    .max(CONTACT.nameMaxLength)
    .refine((v) => isSafeText(v), UNSAFE_TEXT_MESSAGE),
  email: z.string({ error: MESSAGES.invalidEmail }).trim().pipe(z.email(MESSAGES.invalidEmail)),
  topic: z.enum(CONTACT.topics).default('other'),
  message: z
    .string({ error: CONTACT_MESSAGES.messageTooShort })
    .trim()
    .min(CONTACT.messageMinLength, CONTACT_MESSAGES.messageTooShort)
    .max(CONTACT.messageMaxLength, CONTACT_MESSAGES.messageTooLong)
    // A message body is multi-line: tabs and line breaks are kept, other controls and overrides refused.
    .refine((v) => isSafeText(v, { multiLine: true }), UNSAFE_TEXT_MESSAGE),
});

export function contactRoutes({ config, database, log }: AppDeps) {
  const app = new Hono();
  const mailer = createSupportMailer(config);
  app.use('*', bodyCap(config.bodyLimitBytes));
  app.post('/message', async (c) => {
    const body = await validBody(c, contactBody);
    const caller = await authenticate(database.db, c);
    const result = await submitContactMessage(database.db, mailer, log, {
      ...body,
      ip: clientIp(c, config.trustProxy),
      userId: caller?.user.id ?? null,
    });
    return c.json(envelope(0, CONTACT_MESSAGES.sent, result));
  });
  return app;
}
