// Features this server does not serve (the default engines: no provider key) are marked before any input: in the nav,
// on the home cards, on the reference page, and a notice stands in place of the screen's form; what is served is not.
import { expect, test, type Page } from '@playwright/test';
import { useMailbox } from './support/mailbox';
import { declineCookies } from './support/page-checks';
import { signInByMail } from './support/sign-in';

const NOT_AVAILABLE = 'Not available on this server';
const mailbox = useMailbox();

/** The layout shifts the page has had so far, each with what moved from where to where (CLS counts them all). */
function layoutShifts(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        type Shift = {
          value: number;
          sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
        };
        const source = (s: Shift['sources'][number]) =>
          `${(s.node as Element | undefined)?.outerHTML?.slice(0, 80)} ` +
          `${JSON.stringify(s.previousRect)} → ${JSON.stringify(s.currentRect)}`;
        const describe = (e: Shift) => `${e.value}: ${e.sources.map(source).join('; ')}`;
        new PerformanceObserver((list) =>
          resolve(list.getEntries().map((e) => describe(e as unknown as Shift))),
        ).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve([]), 500);
      }),
  );
}

test.beforeEach(({ page }) => declineCookies(page));

test('an unavailable product is marked in the nav and on the home page, and its screen shows a notice instead of the form', async ({
  page,
}) => {
  await page.goto('/playground');
  // Home: the clothes changer card carries the mark, Text to Speech does not.
  const clothesCard = page.locator('.product-card', { has: page.getByRole('link', { name: 'AI Clothes Changer' }) });
  await expect(clothesCard).toContainText(NOT_AVAILABLE);
  await expect(
    page.locator('.product-card', { has: page.getByRole('link', { name: 'Text to Speech', exact: true }) }),
  ).not.toContainText(NOT_AVAILABLE);

  // Nav: the mark is part of the link, before anyone opens the product.
  const products = page.locator('details.nav__dropdown', { has: page.getByText('Products', { exact: true }) });
  await products.locator('summary').click();
  await expect(products.getByRole('link', { name: /Voice Clone/ })).toContainText(NOT_AVAILABLE);
  await expect(products.getByRole('link', { name: /Video Translate/ })).toContainText(NOT_AVAILABLE);
  await expect(products.getByRole('link', { name: /Text to Speech/ })).not.toContainText(NOT_AVAILABLE);

  // The screen: a notice, no form to fill in, and no operator words.
  await products.getByRole('link', { name: /AI Clothes Changer/ }).click();
  await page.waitForURL('**/playground/alClothesChanger');
  const notice = page.getByRole('status').filter({ hasText: 'is not available on this server' });
  await expect(notice).toHaveText('AI Clothes Changer is not available on this server.');
  await expect(page.getByText('Try one of these instead:')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change clothes' })).toBeHidden();
  await expect(page.locator('[data-screen]')).toBeHidden();
  await expect(page.getByText('Model photo', { exact: true })).toBeHidden();
  // The notice takes the form's place at the form's height: nothing on the page moved when it came (CLS 0).
  expect(await layoutShifts(page)).toEqual([]);
  await expect(page.locator('main')).not.toContainText('ENGINES');
});

test('a served product keeps its form, and an unserved API operation is marked on its reference page', async ({
  page,
}) => {
  await page.goto('/playground/textToVideo');
  await expect(page.getByRole('button', { name: 'Generate video' })).toBeVisible();
  await expect(page.locator('main')).not.toContainText(NOT_AVAILABLE);

  await page.goto('/api-reference/tryonClothes');
  await expect(page.locator('.op-header')).toContainText(NOT_AVAILABLE);
  await page.goto('/api-reference/ttsCommon');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('.op-header')).not.toContainText(NOT_AVAILABLE);
});

test('what a page learns after it is shown arrives without moving anything, on a phone and on a wide screen (CLS 0)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 412, height: 823 });
  // A card mark (clothes changer), an operation's mark, a served operation whose samples tell a guest to log in, the
  // notice of an unknown address (the 404 page's redirect), and a share link that is not there.
  for (const [path, settled] of [
    ['/playground', page.locator('.product-card').getByText(NOT_AVAILABLE).first()],
    ['/api-reference/tryonClothes', page.locator('.op-header').getByText(NOT_AVAILABLE)],
    ['/api-reference/ttsCommon', page.getByText(/Log in to see your own key/)],
    ['/no-such-page', page.getByRole('status').filter({ hasText: 'There is no page at /no-such-page' })],
    ['/shared?t=nope', page.getByRole('alert').filter({ hasText: /./ })],
  ] as const) {
    await page.goto(path);
    await expect(settled).toBeVisible();
    expect(await layoutShifts(page), path).toEqual([]);
    if (path === '/api-reference/ttsCommon')
      await expect(page.getByTestId('code-sample')).toContainText(
        `'${new URL(page.url()).origin}/api/async/do_tts_common'`,
      );
  }
  // On a wide screen the examples stand beside the form: an example video has its height before its file loads (the
  // files are held back a moment here, as a slow network would).
  await page.setViewportSize({ width: 1280, height: 823 });
  await page.route('**/examples/*.mp4', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await route.continue();
  });
  await page.goto('/playground/imageToVideo');
  await expect(page.getByTestId('example-video').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await layoutShifts(page), 'example video').toEqual([]);
});

test("signed in, the key in the samples, the dashboard's figures and the account chip arrive without moving anything (CLS 0)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 412, height: 823 });
  await page.goto('/playground');
  await signInByMail(page, mailbox, `steady-${Date.now()}@example.com`);
  // The masked key takes the placeholder's place at its length, and Reveal key had its place kept.
  for (const [path, settled] of [
    ['/api-reference/ttsCommon', page.getByTestId('code-sample').getByText(/Bearer sk-/)],
    ['/dashboard', page.getByTestId('credits')],
  ] as const) {
    await page.goto(path);
    await expect(settled).toBeVisible();
    // Whatever else the page asks for (the usage of the last days) is in too.
    await page.waitForLoadState('networkidle');
    expect(await layoutShifts(page), path).toEqual([]);
  }
  // On a wide screen the account chip takes Log In's place without moving the bar's account area.
  await page.setViewportSize({ width: 1280, height: 823 });
  await page.goto('/pricing');
  await expect(page.locator('[data-credits]')).toHaveText(/credits/);
  expect(await layoutShifts(page), 'account chip').toEqual([]);
});
