// Sends login codes by SMTP through nodemailer (SMTP_URL); without SMTP the code is printed to the server log.
import nodemailer from 'nodemailer';
import type { Config } from '../config';
import type { Logger } from '../log';
import { LOGIN_CODES } from '../../src/lib/spec';

export interface Mailer {
  sendLoginCode(email: string, code: string): Promise<void>;
}

export function loginCodeMail(code: string) {
  const minutes = LOGIN_CODES.ttlMs / 60_000;
  return {
    subject: `Your DreamAPI sign-in code: ${code}`,
    text: `Your sign-in code is ${code}.\n\nIt expires in ${minutes} minutes. If you did not ask for it, ignore this email.\n`,
  };
}

export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, log: Logger): Mailer {
  if (!config.smtpUrl) {
    // Local default (DESIGN.md "mail"): zero set-up, the developer reads the code from the log.
    return {
      async sendLoginCode(email, code) {
        log.warn('login code (no SMTP_URL configured, so it is printed instead of mailed)', { email, code });
      },
    };
  }
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    async sendLoginCode(email, code) {
      await transport.sendMail({ from: config.mailFrom, to: email, ...loginCodeMail(code) });
    },
  };
}
