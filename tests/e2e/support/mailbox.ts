// A real SMTP server (smtp-server) for e2e specs: receives the server's mail and hands out login codes.
import { test } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { accountPorts, E2E_APP_PORT } from './accounts-env';

export interface Mailbox {
  /** Waits for the next mail to this address and returns the 4-digit code in it. */
  nextCode(email: string): Promise<string>;
  close(): Promise<void>;
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
  return {
    async nextCode(email) {
      const start = received.length;
      for (let i = 0; i < 200; i += 1) {
        const mail = received.slice(start).find((m) => m.to === email.toLowerCase()) ?? received.find((m) => m.to === email.toLowerCase() && !m.raw.includes('\0used'));
        if (mail) {
          mail.raw += '\0used';
          const code = /sign-in code(?: is|:) (\d{4})/.exec(mail.raw)?.[1];
          if (code) return code;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no mail for ${email}`);
    },
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
  return { nextCode: (email) => started().nextCode(email), close: () => started().close() };
}
