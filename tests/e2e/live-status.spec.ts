// Live status in Chromium: a playground run's progress and result arrive over the account's status stream, not by
// polling.
import { expect, test, type Page } from '@playwright/test';
import { LIVE_STATUS } from '../../src/lib/product-rules';
import { admin } from './support/admin';
import { useMailbox } from './support/mailbox';
import { hydrated, signInByMail } from './support/sign-in';

const mailbox = useMailbox();
const POLL = '/api-playground/video_tools/v1/poll';

async function signIn(page: Page, name: string): Promise<void> {
  const email = `${name}-${Date.now()}@example.com`;
  await page.goto('/playground/speech');
  await signInByMail(page, mailbox, email);
  admin('grant', email, '200');
}

test('a run follows its status over the stream: the card finishes with no poll request, and falls back to polling when the stream is refused', async ({
  page,
}) => {
  // Sign-in, two runs and the fallback's polls: more than the default 30 s on a busy machine.
  test.setTimeout(180_000);
  await signIn(page, 'live-status');
  const paths: string[] = [];
  page.on('request', (req) => paths.push(new URL(req.url()).pathname));
  // A video clip, not speech: its render outlasts loading the code that follows runs, so the run is still going
  // when that code opens the stream (a speech run can end first, and the history's own fetch then shows it ended).
  await page.goto('/playground/textToVideo');
  await hydrated(page);
  await page.getByRole('radio', { name: /4s · 512p/ }).check();

  await page.getByLabel('Prompt').fill('Status pushed to the page');
  await page.getByRole('button', { name: 'Generate video' }).click();
  const card = page.getByTestId('run-card').first();
  await expect(card).toHaveAttribute('data-phase', 'succeeded', { timeout: 90_000 });
  await expect(card.getByTestId('result-video')).toBeVisible();
  expect(paths).toContain(LIVE_STATUS.playgroundPath);
  expect(paths.filter((p) => p === POLL)).toEqual([]);

  // The stream refused (as a server over its stream cap would): the next run is polled once a second and still
  // finishes.
  await page.route(`**${LIVE_STATUS.playgroundPath}*`, (route) =>
    route.fulfill({ status: 429, contentType: 'application/json', body: '{"code":40029,"msg":"busy"}' }),
  );
  await page.getByLabel('Prompt').fill('Status polled instead');
  await page.getByRole('button', { name: 'Generate video' }).click();
  await expect(page.getByTestId('run-card').first()).toHaveAttribute('data-phase', 'succeeded', { timeout: 90_000 });
  expect(paths.filter((p) => p === POLL).length).toBeGreaterThan(0);
});
