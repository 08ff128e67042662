// A real SMTP server (smtp-server) for e2e specs: receives the server's mail and hands out login codes and sign-in links.
import { test } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { accountPorts, E2E_APP_PORT } from './accounts-env';

export interface Mailbox {
  /** Waits for the next mail to this address and returns the 4-digit code in it. */
  nextCode(email: string): Promise<string>;
  /** Waits for the next mail to this address and returns its code and one-time sign-in link. */
  nextMail(email: string): Promise<{ code: string; link: string }>;
  close(): Promise<void>;
}

/** Undoes quoted-printable soft line breaks and escapes, as nodemailer may wrap a long link line. */
function quotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export async function startMailbox(port: number): Promise<Mailbox> {
  const received: Array<{ to: string; raw: string }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo) received.push({ to: rcpt.address.toLowerCase(), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  async function next(email: string): Promise<{ code: string; link: string }> {
    const start = received.length;
    for (let i = 0; i < 200; i += 1) {
      const mail = received.slice(start).find((m) => m.to === email.toLowerCase()) ?? received.find((m) => m.to === email.toLowerCase() && !m.raw.includes('\0used'));
      if (mail) {
        mail.raw += '\0used';
        const text = quotedPrintable(mail.raw);
        const code = /sign-in code(?: is|:) (\d{4})/.exec(text)?.[1];
        const link = /https?:\/\/\S+[?&]signin=[\w-]+/.exec(text)?.[0];
        if (code && link) return { code, link };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no mail for ${email}`);
  }
  return {
    async nextCode(email) {
      return (await next(email)).code;
    },
    nextMail: next,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The spec file's mailbox on the account specs' SMTP port: started before the file's tests, closed after them. */
export function useMailbox(): Mailbox {
  let box: Mailbox | undefined;
  test.beforeAll(async () => {
    box = await startMailbox(accountPorts(E2E_APP_PORT).smtp);
  });
  test.afterAll(async () => {
    await box?.close();
  });
  const started = (): Mailbox => {
    if (!box) throw new Error('the mailbox starts in beforeAll');
    return box;
  };
  return { nextCode: (email) => started().nextCode(email), nextMail: (email) => started().nextMail(email), close: () => started().close() };
}
