// API reference end to end (docs/public-api.md; every page's accessible render is in pages.spec.ts): the samples' tabs
// answer clicks and the tablist keys, the copied curl sample works against this server with a real key, and Try it
// loads React only when asked, then sends the request and shows the answer (src/lib/product-rules/page-budgets.ts).
import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { useMailbox } from './support/mailbox';
import { declineCookies, expectNoSidewaysScroll } from './support/page-checks';
import { signInByMail } from './support/sign-in';

const mailbox = useMailbox();
test.beforeEach(({ page }) => declineCookies(page));

/**
 * React's element marker and react-dom's root marker, as page-budgets.test.ts looks for them in a page's first load.
 */
const REACT = /__reactContainer|Symbol\.for\(["'`]react\.element["'`]\)|react\.transitional\.element/;

/** The scripts the page loads from now on, with whether each is React. */
function recordScripts(page: Page): { list: Array<Promise<{ url: string; react: boolean }>> } {
  const record = { list: [] as Array<Promise<{ url: string; react: boolean }>> };
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    record.list.push(response.text().then((text) => ({ url: response.url(), react: REACT.test(text) })));
  });
  return record;
}

test('the guide covers every topic with deep links, and the error catalogue lists the codes', async ({ page }) => {
  await page.goto('/docs');
  for (const name of [
    'Overview',
    'Authentication',
    'Task lifecycle',
    'Credits and prices',
    'Errors',
    'Rate limits',
    'Idempotency',
    'Webhooks',
    'Uploads',
  ]) {
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

test('an operation page shows its request fields, responses, errors and three samples for a guest', async ({
  page,
}) => {
  await page.goto('/api-reference/ttsCommon');
  await expect(page.getByRole('region', { name: 'Request fields' })).toContainText('text');
  await expect(page.getByRole('region', { name: 'Errors of this operation' })).toContainText('10192');
  const code = page.getByTestId('code-sample');
  await expect(code).toContainText("curl -sS -X POST 'http://localhost");
  await expect(code).toContainText('Bearer YOUR_API_KEY');
  await expect(page.getByText('Log in to see your own key here instead of YOUR_API_KEY.')).toBeVisible();
  await page.getByRole('tab', { name: 'JavaScript' }).click();
  await expect(code).toHaveAttribute('data-language', 'javascript');
  await expect(code).toContainText('await fetch("http://localhost');
  await page.getByRole('tab', { name: 'Python' }).click();
  await expect(code).toContainText('requests.post(');
  await expect(code).not.toContainText('await fetch(');

  // Copy: a guest's copy carries the placeholder, and the note says it was copied.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Copied', { exact: true })).toBeVisible();
  await expect(page.getByText(/Log in to see your own key/)).toBeHidden();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('"Authorization": "Bearer YOUR_API_KEY"');

  await page.getByRole('button', { name: 'Log in to try it' }).click();
  await expect(page.getByRole('dialog', { name: 'Log in or sign up' })).toBeVisible();
});

test('the sample tabs follow the tablist keys: arrows wrap, Home and End, one tab in the Tab order', async ({
  page,
}) => {
  await page.goto('/api-reference/remainingCredits');
  const code = page.getByTestId('code-sample');
  const tablist = page.getByRole('tablist', { name: 'Sample language' });
  await tablist.getByRole('tab', { name: 'curl' }).focus();
  for (const [key, name, language] of [
    ['ArrowRight', 'JavaScript', 'javascript'],
    ['ArrowRight', 'Python', 'python'],
    ['ArrowRight', 'curl', 'curl'],
    ['ArrowLeft', 'Python', 'python'],
    ['Home', 'curl', 'curl'],
    ['End', 'Python', 'python'],
  ] as const) {
    await page.keyboard.press(key);
    const tab = tablist.getByRole('tab', { name, exact: true });
    await expect(tab).toBeFocused();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(code).toHaveAttribute('data-language', language);
    await expect(code).toHaveAttribute('aria-labelledby', (await tab.getAttribute('id'))!);
  }
  // The chosen tab is the tablist's one stop in the Tab order: Tab goes on to Copy.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Copy' })).toBeFocused();
});

test('an operation page loads no React before anyone interacts; Try it loads it on its click and sends the call', async ({
  page,
}) => {
  const scripts = recordScripts(page);
  await page.goto('/api-reference/openApiDocument');
  await page.waitForLoadState('networkidle');
  await expect(page.getByTestId('code-sample')).toContainText("curl -sS 'http://localhost");
  const before = await Promise.all(scripts.list);
  expect(before.length).toBeGreaterThan(0);
  expect(before.filter((s) => s.react).map((s) => s.url)).toEqual([]);

  // A call without a key: anyone may try it. Focus moves into the form, onto its one control.
  await page.getByRole('button', { name: 'Try this call' }).click();
  const send = page.getByRole('button', { name: 'Send request' });
  await expect(send).toBeFocused();
  await expect(page.getByRole('button', { name: 'Try this call' })).toBeHidden();
  expect((await Promise.all(scripts.list)).some((s) => s.react)).toBe(true);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tryit-status')).toHaveText('200');
  await expect(page.getByTestId('tryit-answer')).toContainText('"openapi": "3.1');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  test('reference pages fit the screen without sideways scrolling', async ({ page }) => {
    await expectNoSidewaysScroll(page, ['/reference', '/api-reference/videoTranslate', '/api-reference/uploadFile']);
  });
});

test('signed in: the samples carry my key (masked until revealed), the copied curl runs, and Try it answers', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/playground');
  await signInByMail(page, mailbox, `reference-${Date.now()}@example.com`);
  // The key arrives right after sign-in (SPEC.md §4 "After login").
  await page.waitForFunction(() => Boolean(localStorage.getItem('userKey')));
  const key = await page.evaluate(() => localStorage.getItem('userKey'));
  expect(key).toMatch(/^sk-/);

  // Without the key in storage the page fetches it, as after a sign-in elsewhere.
  await page.evaluate(() => localStorage.removeItem('userKey'));
  await page.goto('/api-reference/remainingCredits');
  const code = page.getByTestId('code-sample');
  // Masked as long as the placeholder it replaced: the prefix, dots, the last four characters.
  await expect(code).toContainText(`Bearer sk-•••••${key!.slice(-4)}'`);
  await expect(code).not.toContainText(key!);
  await expect(page.getByText(/Log in to see your own key/)).toBeHidden();
  await page.getByRole('button', { name: 'Reveal key' }).click();
  await expect(code).toContainText(`Bearer ${key}`);
  await expect(page.getByRole('button', { name: 'Hide key' })).toHaveAttribute('aria-pressed', 'true');
  // Every language carries it.
  await page.getByRole('tab', { name: 'Python' }).click();
  await expect(code).toContainText(`"Authorization": "Bearer ${key}"`);
  await page.getByRole('button', { name: 'Hide key' }).click();
  await expect(code).not.toContainText(key!);

  await page.getByRole('tab', { name: 'curl' }).click();
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Copied with your key')).toBeVisible();
  const curl = await page.evaluate(() => navigator.clipboard.readText());
  expect(curl).toContain(`Bearer ${key}`);
  const answer = JSON.parse(execFileSync('sh', ['-c', curl], { encoding: 'utf8' })) as {
    code: number;
    data: { remainingCredits: number };
  };
  expect(answer).toMatchObject({ code: 0, data: { remainingCredits: 0 } });

  // Try it: the form opens in place of its button, focus in the body, and sends the call with my key.
  await page.getByRole('button', { name: 'Try this call' }).click();
  await expect(page.getByLabel('Request body (JSON)')).toBeFocused();
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByTestId('tryit-status')).toHaveText('200');
  await expect(page.getByTestId('tryit-answer')).toContainText('"remainingCredits": 0');

  // A refused call shows the server's answer too.
  await page.goto('/api-reference/getAsyncResult');
  await page.getByRole('button', { name: 'Try this call' }).click();
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByTestId('tryit-status')).toHaveText('404');
  await expect(page.getByTestId('tryit-answer')).toContainText('40004');
});
