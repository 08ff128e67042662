// API reference end to end (docs/public-api.md; every page's accessible render is in pages.spec.ts): the copied curl
// sample works against this server with a real key; Try it sends a signed-in user's request and shows the answer.
import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { useMailbox } from './support/mailbox';
import { declineCookies, expectNoSidewaysScroll } from './support/page-checks';
import { hydrated, signInByMail } from './support/sign-in';

const mailbox = useMailbox();
test.beforeEach(({ page }) => declineCookies(page));

test('the guide covers every topic with deep links, and the error catalogue lists the codes', async ({ page }) => {
  await page.goto('/docs');
  for (const name of ['Overview', 'Authentication', 'Task lifecycle', 'Credits and prices', 'Errors', 'Rate limits', 'Idempotency', 'Webhooks', 'Uploads']) {
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${name}`) })).toBeVisible();
  }
  for (const code of ['10192', '40001', '40020', '40029']) await expect(page.locator(`#error-${code}`)).toBeVisible();
  await page.goto('/reference#webhooks');
  await expect(page.locator('#webhooks')).toBeInViewport();
});

test('the sidebar search filters operations as you type', async ({ page }) => {
  await page.goto('/reference');
  const nav = page.getByRole('navigation', { name: 'API reference' });
  await nav.getByLabel('Search the reference').fill('upload');
  await expect(nav.getByRole('link', { name: /Upload step 2/ })).toBeVisible();
  await expect(nav.getByRole('link', { name: /Text to speech$/ })).toBeHidden();
  await nav.getByLabel('Search the reference').fill('zzzz-nothing');
  await expect(nav.getByText('Nothing matches.')).toBeVisible();
});

test('an operation page shows its request fields, responses, errors and three samples for a guest', async ({ page }) => {
  await page.goto('/api-reference/ttsCommon');
  await hydrated(page);
  await expect(page.getByRole('region', { name: 'Request fields' })).toContainText('text');
  await expect(page.getByRole('region', { name: 'Errors of this operation' })).toContainText('10192');
  const code = page.getByTestId('code-sample');
  await expect(code).toContainText("curl -sS -X POST 'http://localhost");
  await expect(code).toContainText('Bearer YOUR_API_KEY');
  await page.getByRole('tab', { name: 'JavaScript' }).click();
  await expect(code).toContainText('await fetch(');
  await page.getByRole('tab', { name: 'Python' }).click();
  await expect(code).toContainText('requests.post(');
  await expect(page.getByRole('button', { name: 'Log in to try it' })).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  test('reference pages fit the screen without sideways scrolling', async ({ page }) => {
    await expectNoSidewaysScroll(page, ['/reference', '/api-reference/videoTranslate', '/api-reference/uploadFile']);
  });
});

test('signed in: the samples carry my key (masked until revealed), the copied curl runs, and Try it answers', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/playground');
  await signInByMail(page, mailbox, `reference-${Date.now()}@example.com`);
  // The key arrives right after sign-in (SPEC.md §4 "After login").
  await page.waitForFunction(() => Boolean(localStorage.getItem('userKey')));
  const key = await page.evaluate(() => localStorage.getItem('userKey'));
  expect(key).toMatch(/^sk-/);

  await page.goto('/api-reference/remainingCredits');
  await hydrated(page);
  const code = page.getByTestId('code-sample');
  await expect(code).toContainText(key!.slice(0, 7));
  await expect(code).not.toContainText(key!);
  await page.getByRole('button', { name: 'Reveal key' }).click();
  await expect(code).toContainText(`Bearer ${key}`);

  await page.getByRole('tab', { name: 'curl' }).click();
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Copied with your key')).toBeVisible();
  const curl = await page.evaluate(() => navigator.clipboard.readText());
  expect(curl).toContain(`Bearer ${key}`);
  const answer = JSON.parse(execFileSync('sh', ['-c', curl], { encoding: 'utf8' })) as { code: number; data: { remainingCredits: number } };
  expect(answer).toMatchObject({ code: 0, data: { remainingCredits: 0 } });

  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByTestId('tryit-status')).toHaveText('200');
  await expect(page.getByTestId('tryit-answer')).toContainText('"remainingCredits": 0');

  // A refused call shows the server's answer too.
  await page.goto('/api-reference/getAsyncResult');
  await hydrated(page);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByTestId('tryit-status')).toHaveText('404');
  await expect(page.getByTestId('tryit-answer')).toContainText('40004');
});
