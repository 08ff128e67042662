// Playground runs end to end in Chromium: View code follows the form and its copied curl runs as is, "Try an example"
// fills the form, advanced settings reach the API and the engine, and two runs at once each finish in their own card.
import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { RUN_MESSAGES, TASK_LIMITS } from '../../src/lib/product-rules';
import { admin } from './support/admin';
import { useMailbox } from './support/mailbox';
import { hydrated, signInByMail } from './support/sign-in';

const mailbox = useMailbox();

async function signIn(page: Page, name: string): Promise<void> {
  const email = `${name}-${Date.now()}@example.com`;
  await page.goto('/playground/speech');
  await signInByMail(page, mailbox, email);
  admin('grant', email, '2000');
}

async function open(page: Page, slug: string): Promise<void> {
  await page.goto(`/playground/${slug}`);
  await hydrated(page);
}

const code = (page: Page) => page.getByTestId('run-code');

test('View code follows the form, copies with the real key, and the copied curl command makes the task the screen would', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, 'view-code');
  await open(page, 'speech');
  await page.getByLabel('Text', { exact: true }).fill('Code panel, first words.');
  await page.getByRole('button', { name: 'View code' }).click();
  await expect(code(page)).toContainText(`"text":"Code panel, first words."`);
  await expect(code(page)).toContainText('/api/async/do_tts_common');
  await expect(code(page)).toContainText(/Bearer sk-•{5}[\w-]{4}'/);

  // Live: each change of the form is in the code at once.
  await page.getByLabel('Text', { exact: true }).fill('Code panel, second words.');
  await page.getByRole('radio', { name: 'Pro' }).check();
  await expect(code(page)).toContainText(`"text":"Code panel, second words."`);
  await expect(code(page)).toContainText('/api/async/do_tts_pro');
  await expect(page.getByTestId('code-cost')).toHaveText((await page.getByTestId('cost').textContent()) ?? '');
  await page.getByRole('tab', { name: 'JavaScript (SDK)' }).click();
  await expect(code(page)).toContainText('await client.ttsPro({');
  await page.getByRole('tab', { name: 'JavaScript (fetch)' }).click();
  await expect(code(page)).toContainText('await api("/api/async/do_tts_pro", {');
  await page.getByRole('tab', { name: 'curl' }).click();

  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByTestId('code-panel').getByRole('status')).toHaveText('Copied with your key');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const key = await page.evaluate(() => localStorage.getItem('userKey'));
  expect(key).toBeTruthy();
  expect(copied).toContain(`Bearer ${key}`);

  // The pasted command works as it is.
  const answer = JSON.parse(execFileSync('sh', ['-c', copied], { encoding: 'utf8' })) as {
    code: number;
    data: { taskId: string };
  };
  expect(answer.code).toBe(0);
  const history = page.getByTestId('history');
  await page.reload();
  await hydrated(page);
  await expect(history.locator(`[data-task-id="${answer.data.taskId}"]`)).toHaveCount(1, { timeout: 20_000 });
});

test('Try an example fills the form; an example with a picture uploads it, and the run uses it', async ({ page }) => {
  await signIn(page, 'examples');
  await open(page, 'textToVideo');
  const examples = page.getByTestId('examples');
  await expect(examples.getByTestId('example-video').first()).toBeVisible();
  await examples.getByRole('button', { name: /^Try an example: A paper boat/ }).click();
  await expect(page.getByLabel('Prompt')).toHaveValue('A paper boat drifting down a rainy street, close-up');
  await expect(page.getByRole('radio', { name: /4s · 512p/ })).toBeChecked();

  await open(page, 'imageToVideo');
  await page
    .getByTestId('examples')
    .getByRole('button', { name: /^Try an example: / })
    .click();
  await expect(page.getByText(/^image · \d+ KB/)).toBeVisible();
  await expect(page.getByLabel('Prompt')).toHaveValue('Slow zoom towards the sun, warm evening light');
  const sent = page.waitForRequest('**/video_tools/v1/animate_video');
  await page.getByRole('button', { name: 'Generate video' }).click();
  const body = (await sent).postDataJSON() as { imageUrl: string; prompt: string; resolution: string };
  expect(body).toMatchObject({ prompt: 'Slow zoom towards the sun, warm evening light', resolution: '512p' });
  expect(body.imageUrl).toMatch(/\/media\//);
  await expect(page.getByTestId('run-card').first()).toHaveAttribute('data-phase', 'succeeded', { timeout: 60_000 });
  await expect(page.getByTestId('examples')).toHaveCount(0);
});

test('advanced settings reach the API and the engine: pitch on speech, a tall frame and a seed on video', async ({
  page,
}) => {
  await signIn(page, 'advanced');
  await open(page, 'speech');
  await page.getByLabel('Text', { exact: true }).fill('A little higher, please.');
  await page.getByText('Advanced settings', { exact: true }).click();
  await page.getByLabel(/^Pitch: 50/).fill('80');
  await expect(page.getByLabel(/^Pitch: 80/)).toBeVisible();
  await expect(page.getByLabel(/^Negative prompt/)).toHaveCount(0);
  const tts = page.waitForRequest('**/speech/v1/tts');
  await page.getByRole('button', { name: 'Generate speech' }).click();
  expect((await tts).postDataJSON()).toMatchObject({ text: 'A little higher, please.', pitch: 80 });
  await expect(page.getByTestId('run-card').first()).toHaveAttribute('data-phase', 'succeeded', { timeout: 30_000 });

  await open(page, 'textToVideo');
  await page.getByLabel('Prompt').fill('A lighthouse in the fog');
  await page.getByRole('radio', { name: /4s · 512p/ }).check();
  await page.getByText('Advanced settings', { exact: true }).click();
  await page.getByRole('radio', { name: '9:16' }).check();
  await page.getByLabel('Seed').fill('42');
  const animate = page.waitForRequest('**/video_tools/v1/animate_video');
  await page.getByRole('button', { name: 'Generate video' }).click();
  expect((await animate).postDataJSON()).toMatchObject({ aspectRatio: '9:16', seed: 42 });
  const video = page.getByTestId('run-card').first().getByTestId('result-video');
  await expect(video).toBeVisible({ timeout: 60_000 });
  // Polled, each try finding the element anew: a listener on an element the page then replaced would wait forever.
  await expect
    .poll(() => video.evaluate((el: HTMLVideoElement) => ({ width: el.videoWidth, height: el.videoHeight })), {
      timeout: 30_000,
    })
    .toEqual({ width: 512, height: 912 });
});

test('two runs at once: the form stays open, each run has its own card with times, and both finish', async ({
  page,
}) => {
  // Two video renders side by side on a busy 2-core machine take longer than the default 30 s test budget.
  test.setTimeout(180_000);
  await signIn(page, 'parallel');
  await open(page, 'textToVideo');
  await page.getByRole('radio', { name: /4s · 512p/ }).check();
  await page.getByLabel('Prompt').fill('First of two clips: a red balloon');
  await page.getByRole('button', { name: 'Generate video' }).click();
  const cards = page.getByTestId('run-card');
  await expect(cards).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Generate video' })).toBeEnabled();
  await page.getByLabel('Prompt').fill('Second of two clips: a blue kite');
  await page.getByRole('button', { name: 'Generate video' }).click();
  await expect(cards).toHaveCount(2);
  // The first was still in progress when the second was sent.
  await expect(page.getByTestId('runs-in-progress')).toHaveText(
    RUN_MESSAGES.inProgress(2, TASK_LIMITS.perUserConcurrent),
  );
  await expect(cards.first().getByTestId('run-elapsed')).toHaveText(/^\d+ s$/);

  for (const card of [cards.nth(0), cards.nth(1)]) {
    await expect(card).toHaveAttribute('data-phase', 'succeeded', { timeout: 90_000 });
    await expect(card.getByTestId('result-video')).toBeVisible();
  }
  await expect(cards.nth(0)).toHaveAttribute('aria-label', 'Run 2');
  await expect(cards.nth(1)).toHaveAttribute('aria-label', 'Run 1');
  const [second, first] = [
    await cards.nth(0).getAttribute('data-task-id'),
    await cards.nth(1).getAttribute('data-task-id'),
  ];
  expect(second).not.toBe(first);
  await expect(page.getByTestId('runs-in-progress')).toHaveText(
    RUN_MESSAGES.inProgress(0, TASK_LIMITS.perUserConcurrent),
  );
});
