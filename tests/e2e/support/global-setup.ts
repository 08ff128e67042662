// Playwright global setup: the run's one SMTP server on the port the e2e server mails to; its teardown stops it.
import { accountPorts, E2E_APP_PORT } from './accounts-env';
import { mailFolder, startMailServer } from './mailbox';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const mail = await startMailServer(accountPorts(E2E_APP_PORT).smtp, mailFolder());
  return () => mail.close();
}
