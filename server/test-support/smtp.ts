// A real SMTP server for tests (smtp-server): takes mail without sign-in or TLS and hands each one, whole, to the
// caller.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface TestSmtp {
  /** smtp://127.0.0.1:<port>, as SMTP_URL takes it. */
  url: string;
  close(): Promise<void>;
}

/**
 * Listens on `port` (0: any free one); `onMail` gets each mail's raw text and its recipients' addresses, lower-cased.
 */
export async function startTestSmtp(onMail: (raw: string, recipients: string[]) => void, port = 0): Promise<TestSmtp> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        onMail(
          raw,
          session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${bound}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
