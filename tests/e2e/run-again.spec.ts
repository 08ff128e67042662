// At 390 and 1440 px: Run again states its price and asks first; the header balance, the cost line's
// balance and the account agree after the run, after the re-run, without a reload; run card and history tell one
// state; an example says what running it costs, as the form it fills then does. (This run's server charges no-model
// runs in full, so every run here is paid.)
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signInThroughApi } from './support/api-sign-in';
import { useMailbox } from './support/mailbox';
import { declineCookies } from './support/page-checks';
import { hydrated } from './support/sign-in';

const mailbox = useMailbox();

test.beforeEach(({ page }) => declineCookies(page));

/** The account's balance as the server has it. */
async function accountBalance(request: APIRequestContext, token: string): Promise<number> {
  const res = await request.post('/user/info', { headers: { token } });
  return ((await res.json()) as { data: { userPoints: number } }).data.userPoints;
}

/** The header's balance ("231 credits") and the cost line's, both equal to the account's. */
async function expectBalances(page: Page, request: APIRequestContext, token: string): Promise<number> {
  const balance = await accountBalance(request, token);
  await expect(page.locator('header [data-credits]')).toHaveText(`${balance} credits`);
  await expect(page.getByTestId('balance')).toHaveText(String(balance));
  return balance;
}

for (const width of [390, 1440]) {
  test(`at ${width} px, Run again asks with its price, and the balances follow every run without a reload`, async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const token = await signInThroughApi(page, request, mailbox, `run-again-${width}`, 500);
    await page.goto('/playground/speech');
    await hydrated(page);
    const start = await expectBalances(page, request, token);

    await page.getByLabel('Text', { exact: true }).fill('Run me, then run me again.');
    const cost = Number(await page.getByTestId('cost').textContent());
    expect(cost).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Generate speech' }).click();
    const card = page.getByTestId('run-card').first();
    const history = page.getByTestId('history');
    await expect(card).toHaveAttribute('data-phase', 'succeeded', { timeout: 60_000 });
    const taskId = await card.getAttribute('data-task-id');
    // The card and the history item tell the same end.
    await expect(history.locator(`[data-task-id="${taskId}"]`)).toHaveAttribute('data-status', 'succeeded');
    expect(await expectBalances(page, request, token)).toBe(start - cost);

    // Run again: the price first, nothing spent until confirmed; then the new run is first, focused, and followed.
    const item = history.locator(`[data-task-id="${taskId}"]`);
    await item.getByRole('button', { name: 'Run again…' }).click();
    const ask = item.getByTestId('paid-confirm');
    await expect(ask).toContainText(`Run it again for ${cost} credit${cost === 1 ? '' : 's'}?`);
    await expect(ask.getByRole('button', { name: 'Yes, run again' })).toBeFocused();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    expect(await accountBalance(request, token)).toBe(start - cost);
    await item.getByRole('button', { name: 'Run again…' }).click();
    await item.getByRole('button', { name: 'Yes, run again' }).click();
    const again = history.locator('[data-task-id]').first();
    await expect(again).not.toHaveAttribute('data-task-id', taskId!);
    await expect(again).toBeFocused();
    await expect(again).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
    expect(await expectBalances(page, request, token)).toBe(start - 2 * cost);
  });
}

test('an example says what running it costs here, the cost the form it fills shows, and running it asks nothing more', async ({
  page,
  request,
}) => {
  await signInThroughApi(page, request, mailbox, 'example-cost', 100);
  await page.goto('/playground/speech');
  await hydrated(page);
  const example = page.getByTestId('examples').locator('li').first();
  await expect(example.getByTestId('example-cost')).toHaveText(/^Running it: \d+ credits?\./);
  const credits = /(\d+)/.exec((await example.getByTestId('example-cost').textContent())!)![1];
  await example.getByRole('button', { name: /^Try an example/ }).click();
  await expect(page.getByTestId('cost')).toHaveText(credits!);
  await expect(page.getByTestId('run-card')).toHaveCount(0);
});
