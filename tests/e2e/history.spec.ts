// History panel end to end at 1440 and 390 px: what each item was made from, named downloads, search and filter,
// re-run, a public share link opened without an account and revoked, delete with undo, poster frames of videos.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { admin } from './support/admin';
import { useMailbox } from './support/mailbox';
import { declineCookies, noSidewaysScroll } from './support/page-checks';
import { hydrated, signInByMail } from './support/sign-in';

const root = path.resolve(import.meta.dirname, '../..');
const shots = path.join(root, 'test-results/screenshots');
const mailbox = useMailbox();

test.beforeAll(() => mkdirSync(shots, { recursive: true }));
test.beforeEach(({ page }) => declineCookies(page));

/** Submits a playground task with the page's session (setup only; the UI under test is the history). */
async function submit(page: Page, route: string, body: unknown): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('userToken'));
  const res = await page.request.post(`/api-playground${route}`, { headers: { token: token ?? '' }, data: body });
  const answer = (await res.json()) as { code: number; msg: string; data: { taskId: string } };
  expect(answer.msg).toBe('submit Successfully');
  return answer.data.taskId;
}

async function available(page: Page, feature: string): Promise<boolean> {
  const token = await page.evaluate(() => localStorage.getItem('userToken'));
  const res = await page.request.get('/api-playground/task/v1/features', { headers: { token: token ?? '' } });
  const body = (await res.json()) as { data: { list: Array<{ feature: string; available: boolean }> } };
  return body.data.list.some((f) => f.feature === feature && f.available);
}

for (const width of [1440, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('history items say what they were made from; download, search, filter, re-run, share, delete with undo', async ({
      page,
      browser,
    }) => {
      test.setTimeout(180_000);
      const email = `history-${width}-${Date.now()}@example.com`;
      await page.goto('/playground/speech');
      await signInByMail(page, mailbox, email);
      admin('grant', email, '1000');

      // One run through the form, two more through the API.
      await page.getByLabel('Text', { exact: true }).fill('The quick brown fox jumps over the lazy dog.');
      await page.getByRole('button', { name: 'Generate speech' }).click();
      const history = page.getByTestId('history');
      const fox = history.locator('[data-task-id]').filter({ hasText: 'The quick brown fox' });
      await expect(fox).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
      await submit(page, '/speech/v1/tts', {
        text: 'Pack my box with five dozen liquor jugs.',
        voiceId: 'en-gb-male-1',
        quality: 'pro',
      });
      await page.reload();
      await hydrated(page);
      const jugs = history.locator('[data-task-id]').filter({ hasText: 'five dozen liquor jugs' });
      await expect(jugs).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
      await page.reload();
      await hydrated(page);

      // What it was made from, engine, charge; the download is named after the feature and date, not the id.
      await expect(jugs.getByTestId('history-summary')).toHaveText(
        'Pack my box with five dozen liquor jugs. · Oliver (en-GB)',
      );
      await expect(jugs.getByText('Speech · Pro')).toBeVisible();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        jugs.getByRole('link', { name: 'Download' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^tts-pro-\d{4}-\d\d-\d\d-\d{4}\.wav$/);

      // Search and filter ask the server.
      await page.getByLabel('Search history').fill('fox');
      await expect(history.locator('[data-task-id]')).toHaveCount(1);
      await expect(fox).toBeVisible();
      await page.getByLabel('Search history').fill('');
      await page.getByLabel('Show').selectOption('tts-pro');
      await expect(history.locator('[data-task-id]')).toHaveCount(1);
      await expect(jugs).toBeVisible();
      await page.getByLabel('Show').selectOption('screen');
      await expect(history.locator('[data-task-id]')).toHaveCount(2);
      expect(await noSidewaysScroll(page)).toBe(true);
      await page.screenshot({ path: path.join(shots, `history-${width}.png`), fullPage: true });

      // Run again: a paid run states its price and asks first; then a new item with the same inputs, followed until it
      // finishes.
      await jugs.first().getByRole('button', { name: 'Run again…' }).click();
      const ask = jugs.first().getByRole('group', { name: /^Run Speech · Pro again\?$/ });
      await expect(ask).toContainText(/Run it again for \d+ credits?\?/);
      await ask.getByRole('button', { name: 'Yes, run again' }).click();
      await expect(jugs).toHaveCount(2);
      await expect(jugs.first()).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });

      // Share: a public link that a visitor without an account opens, until it is revoked.
      const item = jugs.first();
      await item.getByRole('button', { name: 'Share' }).click();
      const panel = item.getByRole('region', { name: 'Share Speech · Pro' });
      await panel.getByLabel('7 days').check();
      await panel.getByRole('button', { name: 'Create link' }).click();
      const url = await panel.getByLabel('Share link').inputValue();
      expect(url).toMatch(/\/shared\?t=/);
      const visitor = await browser.newContext({ viewport: { width, height: 900 } });
      const guest = await visitor.newPage();
      await guest.goto(url);
      await expect(guest.getByRole('heading', { level: 1 })).toHaveText('Speech · Pro');
      await expect(guest.getByText('Pack my box with five dozen liquor jugs.')).toBeVisible();
      const audio = guest.getByTestId('shared-output');
      await expect(audio).toBeVisible();
      await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.duration)).toBeGreaterThan(0);
      await guest.screenshot({ path: path.join(shots, `shared-${width}.png`), fullPage: true });
      await panel.getByRole('button', { name: 'Revoke' }).click();
      await expect(panel.getByLabel('Share link')).toHaveCount(0);
      await guest.reload();
      await expect(guest.getByRole('heading', { level: 1 })).toHaveText('This result is not available');
      await visitor.close();

      // Delete: hidden at once with Undo; Undo brings it back; otherwise it is gone for good.
      const before = await history.locator('[data-task-id]').count();
      await fox.getByRole('button', { name: /^Delete Speech · Common/ }).click();
      await expect(history.locator('[data-task-id]')).toHaveCount(before - 1);
      await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
      await expect(history.locator('[data-task-id]')).toHaveCount(before);
      await fox.getByRole('button', { name: /^Delete Speech · Common/ }).click();
      await expect(page.getByRole('status').getByRole('button', { name: 'Undo' })).toHaveCount(0, { timeout: 15_000 });
      await page.reload();
      await hydrated(page);
      await expect(jugs).toHaveCount(2);
      await expect(fox).toHaveCount(0);
    });

    test('video results show a poster frame, not a black tile', async ({ page }) => {
      test.setTimeout(120_000);
      const email = `poster-${width}-${Date.now()}@example.com`;
      await page.goto('/playground/textToVideo');
      await signInByMail(page, mailbox, email);
      // The embedded defaults serve text to video with the preview engine (ffmpeg ships with npm ci): it must run here.
      expect(await available(page, 'text-to-video'), 'text-to-video is served on the e2e server').toBe(true);
      admin('grant', email, '1000');
      await submit(page, '/video_tools/v1/animate_video', {
        type: 'text',
        prompt: 'A lighthouse at dusk',
        resolution: '512p',
        duration: 4,
      });
      const item = page.getByTestId('history').locator('[data-task-id]').first();
      await expect(async () => {
        await page.reload();
        await hydrated(page);
        await expect(item).toHaveAttribute('data-status', 'succeeded', { timeout: 2000 });
      }).toPass({ timeout: 90_000 });
      const video = item.getByTestId('result-video');
      const poster = await video.getAttribute('poster');
      expect(poster).toMatch(/\/media\/\w+\.jpg\?exp=/);
      const res = await page.request.get(poster!);
      expect(res.headers()['content-type']).toBe('image/jpeg');
      expect((await res.body()).length).toBeGreaterThan(1000);
      await expect(item.getByTestId('history-summary')).toHaveText('A lighthouse at dusk');
      expect(await noSidewaysScroll(page)).toBe(true);
      await item.screenshot({ path: path.join(shots, `history-video-${width}.png`) });
    });
  });
}
