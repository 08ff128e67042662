// The run's mailbox: a real SMTP server (smtp-server) started once per run that files each mail in a folder, and
// readers in the test workers that hand out login codes and sign-in links from that folder, so flows may run side by
// side.
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startTestSmtp } from '../../../server/test-support/smtp';

export interface Mailbox {
  /** Waits for the next mail to this address and returns the 4-digit code in it. */
  nextCode(email: string): Promise<string>;
  /** Waits for the next mail to this address and returns its code and one-time sign-in link. */
  nextMail(email: string): Promise<{ code: string; link: string }>;
}

/** Where the run's mail is filed: beside the e2e server's data (E2E_DATA_DIR, set by the Playwright config). */
export function mailFolder(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: the mailbox runs under tests/e2e/playwright.config.ts');
  return path.join(dataDir, 'e2e-mail');
}

/** Undoes quoted-printable soft line breaks and escapes, as nodemailer may wrap a long link line. */
function quotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * Starts the SMTP server on `port`; each mail becomes `<sequence>.<recipient>.eml` in `folder` (written whole, then
 * renamed in).
 */
export async function startMailServer(port: number, folder: string): Promise<{ close(): Promise<void> }> {
  mkdirSync(folder, { recursive: true });
  let sequence = 0;
  const server = await startTestSmtp((raw, recipients) => {
    for (const rcpt of recipients) {
      sequence += 1;
      const name = `${String(sequence).padStart(6, '0')}.${rcpt}.eml`;
      writeFileSync(path.join(folder, `${name}.part`), raw);
      renameSync(path.join(folder, `${name}.part`), path.join(folder, name));
    }
  }, port);
  return { close: () => server.close() };
}

/**
 * Reads the run's mail. The next mail for an address is the first that arrived after the call, else the oldest this
 * worker has not handed out yet (addresses are unique to a test, so no two workers read one address).
 */
export function useMailbox(folder = mailFolder()): Mailbox {
  const used = new Set<string>();
  const mailsFor = (email: string) => {
    const suffix = `.${email.toLowerCase()}.eml`;
    return readdirSync(folder)
      .filter((name) => name.endsWith(suffix))
      .sort();
  };
  async function next(email: string): Promise<{ code: string; link: string }> {
    const before = new Set(mailsFor(email));
    for (let i = 0; i < 200; i += 1) {
      const names = mailsFor(email).filter((name) => !used.has(name));
      const name = names.find((n) => !before.has(n)) ?? names[0];
      if (name) {
        used.add(name);
        const text = quotedPrintable(readFileSync(path.join(folder, name), 'utf8'));
        const code = /sign-in code(?: is|:) (\d{4})/.exec(text)?.[1];
        const link = /https?:\/\/\S+[?&]signin=[\w-]+/.exec(text)?.[0];
        if (code && link) return { code, link };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no mail for ${email}`);
  }
  return { nextCode: async (email) => (await next(email)).code, nextMail: next };
}
