// Developer tools end to end at 1440 and 390 px: a key's credit cap set in the dashboard and holding at submit, the
// webhook delivery log with the failed-only filter and Redeliver against a local receiver, and the usage CSV download.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEVELOPER_TOOL_CODES, USAGE_EXPORT } from '../../src/lib/product-rules';
import { callApi, storeSession } from './support/api-sign-in';
import { useChargedServer } from './support/charged-server';
import { openTab } from './support/dashboard-tab';
import { useMailbox } from './support/mailbox';
import { axeViolations, declineCookies, noSidewaysScroll } from './support/page-checks';
import { hydrated } from './support/sign-in';

const root = path.resolve(import.meta.dirname, '../..');
const shots = path.join(root, 'test-results/screenshots');
const mailbox = useMailbox();

// Charged runs (NO_MODEL_PRICE=full) so caps have something to count, webhooks to a receiver on this machine, and
// quick retries: this spec starts its own server.
const { base, grant } = useChargedServer('developer-tools', 60, {
  OUTBOUND_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_MAX_ATTEMPTS: '2',
});

/** The webhook receiver: answers 500 until told otherwise, and keeps what it got. */
const received: Array<{ headers: IncomingHttpHeaders }> = [];
let answer = 500;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received.push({ headers: req.headers });
    res
      .writeHead(answer, { 'content-type': 'text/plain' })
      .end(answer === 500 ? 'receiver is down for maintenance' : 'thanks');
  });
});
let hookUrl: string;

test.beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/dreamapi`;
});
test.afterAll(() => new Promise((r) => receiver.close(r)));
test.beforeEach(({ page }) => declineCookies(page));

/** A product API call to this spec's server, returning its data. */
const call = (request: APIRequestContext, route: string, form: Record<string, string>, token?: string) =>
  callApi(request, `${base}${route}`, form, token);

/**
 * Signs a new user in through the email-code calls, grants credits with the operator CLI and stores the session in the
 * page.
 */
async function signIn(page: Page, name: string, credits: number) {
  const email = `${name}-${Date.now()}@developer-tools.test`;
  const { attemptId } = await call(page.request, '/user/code', { email, type: 'login' });
  const { token, userId } = await call(page.request, '/user/email/login', {
    email,
    code: await mailbox.nextCode(email),
    attemptId: attemptId!,
  });
  await call(page.request, '/user/infoUpdate', { company: 'Developer Tools Ltd', channel: '' }, token);
  grant(email, credits);
  await storeSession(page, token!, userId!);
  const { key } = await call(page.request, '/apply/playground', { userId: userId! }, token);
  return { token: token!, key: key! };
}

const api = async (
  request: APIRequestContext,
  key: string,
  tool: string,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  (await (
    await request.post(`${base}/api/${tool}`, { headers: { authorization: `Bearer ${key}`, ...headers }, data: body })
  ).json()) as {
    code: number;
    message: string;
    data: Record<string, unknown>;
  };

for (const width of [1440, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('credit caps, webhook deliveries with redelivery, usage export', async ({ page }) => {
      test.setTimeout(180_000);
      const { key } = await signIn(page, `devtools-${width}`, 100);
      answer = 500;
      const submitted = await api(
        page.request,
        key,
        'async/do_tts_common',
        { text: 'Webhook me', audioId: 'en-us-male-1', callbackUrl: hookUrl },
        { 'x-request-id': `e2e-${width}` },
      );
      expect(submitted.code, submitted.message).toBe(0);
      const taskId = submitted.data.taskId as string;
      // Both scheduled attempts fail (WEBHOOK_MAX_ATTEMPTS=2): the message ends up failed.
      await expect
        .poll(
          async () => ((await api(page.request, key, 'webhooks/deliveries', { taskId })).data.list as unknown[]).length,
          { timeout: 60_000 },
        )
        .toBe(2);

      // Caps: the default key shows its use; a daily cap of 1 is set in the dashboard and the next submit is refused.
      await page.goto(`${base}/dashboard?type=key`);
      await hydrated(page);
      const defaultKey = page.getByTestId('key-list').getByRole('listitem').filter({ hasText: 'Default key' });
      await expect(defaultKey.getByTestId('key-caps')).toContainText('1 used · no cap');
      await defaultKey.getByRole('button', { name: 'Edit caps of Default key' }).click();
      await defaultKey.getByLabel('Daily cap (UTC day)').fill('1');
      await defaultKey.getByRole('button', { name: 'Save caps' }).click();
      await expect(defaultKey.getByRole('meter', { name: 'Today: 1 of 1 credits' })).toBeVisible();
      await expect(defaultKey).toContainText('1 / 1 credits');
      const refused = await api(page.request, key, 'async/do_tts_common', {
        text: 'One too many',
        audioId: 'en-us-male-1',
      });
      expect(refused.code).toBe(DEVELOPER_TOOL_CODES.keyCapReached);
      expect(refused.message).toContain('daily credit cap of 1');
      // A new key with a monthly cap set at creation.
      await page.getByLabel('New key name').fill('Nightly batch');
      await page.getByLabel('Monthly credit cap').fill('250');
      await page.getByRole('button', { name: 'Create key' }).click();
      const batch = page.getByTestId('key-list').getByRole('listitem').filter({ hasText: 'Nightly batch' });
      await expect(batch).toContainText('0 / 250 credits');
      expect(await noSidewaysScroll(page)).toBe(true);
      expect((await axeViolations(page, '[data-testid="key-list"]')).map((v) => v.id)).toEqual([]);
      await page.screenshot({ path: path.join(shots, `developer-caps-${width}.png`), fullPage: true });
      await page.getByTestId('key-list').screenshot({ path: path.join(shots, `developer-caps-list-${width}.png`) });

      // Webhook log: both failed attempts with the receiver's answer; failed only; Redeliver once the receiver is back.
      await openTab(page, 'Requests');
      const log = page.getByTestId('webhook-log');
      await expect(log.getByRole('row')).toHaveCount(3);
      await expect(log).toContainText('receiver is down for maintenance');
      await expect(log).toContainText(hookUrl);
      await expect(log.getByRole('row').nth(2)).toContainText('500');
      await page.getByLabel('Failed only').check();
      await expect(log.getByRole('row')).toHaveCount(3);
      await page.getByLabel('Failed only').uncheck();
      await expect(log.getByRole('row')).toHaveCount(3);
      answer = 200;
      const before = received.length;
      await log
        .getByRole('row')
        .nth(1)
        .getByRole('button', { name: /^Redeliver/ })
        .click();
      await expect(page.getByText('Redelivered', { exact: true })).toBeVisible();
      await expect(log.getByRole('row')).toHaveCount(4);
      await expect(log.getByRole('row').nth(1)).toContainText('200');
      await expect(log.getByRole('row').nth(1)).toContainText('redelivery');
      expect(received).toHaveLength(before + 1);
      expect(received.at(-1)!.headers['webhook-id']).toBe(received[before - 1]!.headers['webhook-id']);
      await page.getByLabel('Failed only').check();
      await expect(log.getByRole('row')).toHaveCount(3);
      expect(await noSidewaysScroll(page)).toBe(true);
      expect((await axeViolations(page, '[data-testid="webhook-log"]')).map((v) => v.id)).toEqual([]);
      await log.screenshot({ path: path.join(shots, `developer-webhooks-${width}.png`) });

      // Usage export: the CSV of today has the task with its request id, and the credit movements.
      const today = new Date().toISOString().slice(0, 10);
      await page.getByLabel('From', { exact: true }).fill(today);
      await page.getByLabel('To', { exact: true }).fill(today);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`usage-${today}-to-${today}.csv`);
      const csv = readFileSync((await download.path())!, 'utf8');
      expect(csv.split('\r\n')[0]).toBe(USAGE_EXPORT.columns.join(','));
      const taskLine = csv.split('\r\n').find((line) => line.startsWith(`task,${taskId},`));
      expect(taskLine).toContain(`,e2e-${width},Default key`);
      expect(csv).toContain(',grant,');
      expect(csv).toContain(',task-hold,');
      await page.screenshot({ path: path.join(shots, `developer-requests-${width}.png`), fullPage: true });
    });
  });
}
