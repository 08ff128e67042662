// Sends login codes and their one-time sign-in links by SMTP through nodemailer (SMTP_URL); without SMTP they are
// printed to the server log.
import nodemailer from 'nodemailer';
import type { Config } from '../config';
import type { Logger } from '../log';
import { LOGIN_CODES, LOGIN_LINK } from '../../src/lib/product-rules';

/** What one code mail carries: the 4-digit code and a link that signs in without it (docs/security.md). */
export interface LoginMail {
  code: string;
  link: string;
}

export interface Mailer {
  sendLoginCode(email: string, mail: LoginMail): Promise<void>;
}

/** The link's address: the site's root page, which posts the token to /user/email/login (SPEC.md §4 root visit). */
export function signInLink(siteUrl: string, token: string): string {
  return `${siteUrl}/?${LOGIN_LINK.queryParam}=${encodeURIComponent(token)}`;
}

export function loginCodeMail({ code, link }: LoginMail) {
  const minutes = LOGIN_CODES.ttlMs / 60_000;
  return {
    subject: `Your DreamAPI sign-in code: ${code}`,
    text:
      `Your sign-in code is ${code}.\n\n` +
      `Or sign in with this link (it works once):\n${link}\n\n` +
      `Both expire in ${minutes} minutes. If you did not ask for them, ignore this email; nobody can sign in without it.\n`,
  };
}

export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, log: Logger): Mailer {
  if (!config.smtpUrl) {
    // Local default (DESIGN.md "Stack, and why"): zero set-up, the developer reads the code from the log.
    return {
      async sendLoginCode(email, mail) {
        log.warn('login code (no SMTP_URL configured, so it is printed instead of mailed)', {
          email,
          code: mail.code,
          link: mail.link,
        });
      },
    };
  }
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    async sendLoginCode(email, mail) {
      await transport.sendMail({ from: config.mailFrom, to: email, ...loginCodeMail(mail) });
    },
  };
}
