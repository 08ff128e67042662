// Dashboard end to end at 1440 and 390 px: credits used per day and feature, named API keys with last use and revoke,
// the request log with paging, and billing rows that say what happened and link to the task (readable at 390 px, axe
// clean).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { useChargedServer } from './support/charged-server';
import { openTab } from './support/dashboard-tab';
import { useMailbox } from './support/mailbox';
import { axeViolations, declineCookies, noSidewaysScroll } from './support/page-checks';
import { hydrated, signInByMail } from './support/sign-in';

const root = path.resolve(import.meta.dirname, '../..');
const shots = path.join(root, 'test-results/screenshots');
const mailbox = useMailbox();

// Out of the box every engine here runs without an AI model, and such runs are free (NO_MODEL_PRICE), so the shared
// e2e server charges nothing. Billing and usage need charged runs: this spec starts its own server that charges them.
const { base, grant } = useChargedServer('dashboard', 50);

test.beforeAll(() => mkdirSync(shots, { recursive: true }));
test.beforeEach(({ page }) => declineCookies(page));

const api = (request: APIRequestContext, key: string, tool: string, body: unknown) =>
  request.post(`${base}/api/${tool}`, { headers: { authorization: `Bearer ${key}` }, data: body });

async function waitForTask(request: APIRequestContext, key: string, taskId: string): Promise<void> {
  await expect
    .poll(
      async () =>
        (
          (await (await api(request, key, 'getAsyncResult', { taskId })).json()) as {
            data: { task: { status: number } };
          }
        ).data.task.status,
      { timeout: 60_000 },
    )
    .toBeGreaterThanOrEqual(3);
}

for (const width of [1440, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('usage chart, named keys, request log and readable billing', async ({ page }) => {
      test.setTimeout(180_000);
      const email = `dashboard-${width}-${Date.now()}@example.com`;
      await page.goto(`${base}/playground`);
      await signInByMail(page, mailbox, email);
      grant(email, 1000);
      await page.goto(`${base}/dashboard`);
      await hydrated(page);

      // The default key (what /apply/playground returns) makes a task and a few reads through the public API.
      await openTab(page, 'API keys');
      await page.getByRole('button', { name: 'Reveal' }).click();
      const key = (await page.getByTestId('api-key').textContent())!;
      expect(key).toMatch(/^sk-/);
      const submitted = (await (
        await api(page.request, key, 'async/do_tts_common', {
          text: 'Hello from the dashboard test',
          audioId: 'en-us-male-1',
        })
      ).json()) as { data: { taskId: string } };
      const taskId = submitted.data.taskId;
      await waitForTask(page.request, key, taskId);
      expect((await api(page.request, key, 'getAsyncResult', { taskId: 'no-such-task' })).status()).toBe(404);
      for (let i = 0; i < 20; i++) await api(page.request, key, 'remaining_credits', {});

      // A named key: shown once, works, shows when it was last used, and stops when revoked.
      const keys = page.getByTestId('key-list');
      await expect(keys.getByText('Default key', { exact: true })).toBeVisible();
      await page.getByLabel('New key name').fill('CI pipeline');
      await page.getByRole('button', { name: 'Create key' }).click();
      const named = (await page.getByTestId('new-key').textContent())!;
      expect(named).toMatch(/^sk-/);
      expect((await api(page.request, named, 'remaining_credits', {})).status()).toBe(200);
      await page.reload();
      await hydrated(page);
      const ci = keys.getByRole('listitem').filter({ hasText: 'CI pipeline' });
      await expect(ci).toContainText('last used');
      await expect(ci).toContainText(`${named.slice(0, 7)}…${named.slice(-4)}`);
      await expect(page.getByTestId('new-key')).toHaveCount(0);
      expect(await noSidewaysScroll(page)).toBe(true);
      await page.screenshot({ path: path.join(shots, `dashboard-keys-${width}.png`), fullPage: true });
      await ci.getByRole('button', { name: 'Revoke CI pipeline' }).click();
      await ci.getByRole('button', { name: 'Yes, revoke' }).click();
      await expect(ci).toHaveCount(0);
      expect((await api(page.request, named, 'remaining_credits', {})).status()).toBe(401);

      // Request log: newest first, with tool, status, credits and task id; older calls on the next page.
      await openTab(page, 'Requests');
      const log = page.getByTestId('requests-table');
      await expect(log.getByRole('row').nth(1)).toContainText('remaining_credits');
      await expect(log.getByRole('row').nth(1)).toContainText('revoked key');
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByText('Page 2 of 2')).toBeVisible();
      await expect(log).toContainText('getAsyncResult');
      await expect(log).toContainText('404');
      const submitRow = log.getByRole('row').filter({ hasText: 'async/do_tts_common' });
      await expect(submitRow).toContainText(taskId);
      expect(await noSidewaysScroll(page)).toBe(true);
      await page.screenshot({ path: path.join(shots, `dashboard-requests-${width}.png`), fullPage: true });

      // Overview: the credits used today, per feature, in the chart.
      await openTab(page, 'Overview');
      const chart = page.getByTestId('usage-chart');
      await expect(chart).toBeVisible();
      await expect(chart.locator('rect[data-feature="tts-common"]')).toHaveCount(1);
      await expect(page.getByText(/^Speech · Common: \d+$/)).toBeVisible();
      expect(await noSidewaysScroll(page)).toBe(true);
      await page.screenshot({ path: path.join(shots, `dashboard-overview-${width}.png`), fullPage: true });

      // Billing: the task row names the feature and what happened, links to the task; no hidden columns, nothing axe
      // flags.
      await openTab(page, 'Billing');
      const billing = page.getByTestId('billing-table');
      const row = billing.getByRole('row').filter({ hasText: 'Speech · Common' }).first();
      await expect(row).toContainText(/Held \d+ → charged \d+/);
      await expect(billing).not.toContainText('Generation (held)');
      for (const label of ['Date', 'What', 'Change', 'Balance'])
        await expect(row.locator(`td[data-label="${label}"]`)).toBeVisible();
      expect(await noSidewaysScroll(page)).toBe(true);
      expect((await axeViolations(page, '[data-testid="billing-table"]')).map((v) => v.id)).toEqual([]);
      await page.screenshot({ path: path.join(shots, `dashboard-billing-${width}.png`), fullPage: true });

      // An API task has no playground screen, so its rows carry no link; a playground task's row opens it in the
      // history.
      const token = await page.evaluate(() => localStorage.getItem('userToken'));
      const played = (await (
        await page.request.post(`${base}/api-playground/speech/v1/tts`, {
          headers: { token: token ?? '' },
          data: { text: 'Open me from billing', voiceId: 'en-us-female-1' },
        })
      ).json()) as { data: { taskId: string } };
      await waitForTask(page.request, key, played.data.taskId);
      await page.reload();
      await hydrated(page);
      const link = page.getByTestId('billing-table').getByRole('link', { name: 'View task' }).first();
      await expect(link).toHaveAttribute('href', `/playground/speech?task=${played.data.taskId}#history-title`);
      await link.click();
      await page.waitForURL(/\/playground\/speech\?task=/);
      const opened = page.locator(`[data-task-id="${played.data.taskId}"]`);
      await expect(opened).toBeFocused();
      await expect(opened.getByTestId('history-summary')).toContainText('Open me from billing');
    });
  });
}
