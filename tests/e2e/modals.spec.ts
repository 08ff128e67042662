// Modals and the account menu in real Chromium: native dialogs keep focus inside and give it back, the code
// step focuses the first digit, the menu answers its keys, and after sign-in the suspension notice comes first and the
// information form is offered once per account.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { admin } from './support/admin';
import { useMailbox } from './support/mailbox';
import { declineCookies } from './support/page-checks';
import { openLogin, signInByMail } from './support/sign-in';

const mailbox = useMailbox();

test.beforeEach(async ({ page }) => declineCookies(page));

/** Signs `email` in through the code calls and answers its session, stored nowhere yet. */
async function apiSession(request: APIRequestContext, email: string): Promise<{ token: string; userId: string }> {
  const mailed = mailbox.nextCode(email);
  const sent = await (await request.post('/user/code', { form: { email, type: 'login' } })).json();
  const login = await (
    await request.post('/user/email/login', { form: { email, code: await mailed, attemptId: sent.data.attemptId } })
  ).json();
  return login.data;
}

/** The page holds `session` with the after-login steps still to run, as a sign-in link or an OAuth return leaves it. */
async function holdPendingSession(page: Page, session: { token: string; userId: string }): Promise<void> {
  await page.addInitScript(({ token, userId }) => {
    if (localStorage.getItem('userToken')) return;
    localStorage.setItem('userToken', token);
    localStorage.setItem('userId', userId);
    sessionStorage.setItem('afterLoginPending', '1');
  }, session);
}

/**
 * The accessible name of the focused element and where it is: inside the open dialog, or on the page behind it. Past
 * the dialog's last control Tab goes to the browser's own controls (activeElement is then the body), never to the page.
 */
const focus = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    const labelled = el instanceof HTMLInputElement ? el.labels?.[0]?.textContent : null;
    return {
      inDialog: Boolean(el?.closest('dialog[open]')),
      onPage: Boolean(el && el !== document.body && !el.closest('dialog[open]')),
      label: el?.getAttribute('aria-label') || labelled?.trim() || el?.textContent?.trim() || '',
    };
  });

test('the login dialog is modal: focus stays inside, the page behind is inert, Escape closes it and focus returns to Log In', async ({
  page,
}) => {
  await page.goto('/pricing');
  // A static page: no React until the dialog is asked for.
  expect(
    await page.evaluate(() =>
      performance.getEntriesByType('resource').some((r) => /ModalHost|mount-modals/.test(r.name)),
    ),
  ).toBe(false);
  const dialog = await openLogin(page);
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((d) => d.tagName === 'DIALOG' && d.matches(':modal'))).toBe(true);
  expect(await focus(page)).toEqual({ inDialog: true, onPage: false, label: 'Email' });
  const seen = new Set<string>();
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('Tab');
    const now = await focus(page);
    expect(now.onPage, now.label).toBe(false);
    if (now.inDialog) seen.add(now.label);
  }
  // Round and round the dialog's own controls: Close, Email, Continue, Google, GitHub.
  expect([...seen].sort()).toEqual(['Close', 'Continue', 'Email', 'GitHub', 'Google']);
  // showModal() makes the rest of the page inert: a click on a link behind the dialog does nothing.
  await page
    .getByRole('link', { name: 'Contact Us' })
    .click({ force: true, timeout: 2000 })
    .catch(() => {});
  await expect(page).toHaveURL(/\/pricing$/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(await focus(page)).toEqual({ inDialog: false, onPage: true, label: 'Log In' });
});

test('the code step focuses the first digit; a wrong code empties the boxes and focuses it again', async ({ page }) => {
  const email = `focus-${Date.now()}@example.com`;
  await page.goto('/docs');
  const dialog = await openLogin(page);
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('Digit 1')).toBeFocused();
  const code = await mailbox.nextCode(email);
  await page.keyboard.type(String((Number(code) + 1) % 10_000).padStart(4, '0'));
  await expect(page.getByLabel('Digit 4')).toHaveValue('');
  await expect(page.getByLabel('Digit 1')).toBeFocused();
});

test('the account menu answers ArrowDown, ArrowUp, Home, End and Escape', async ({ page }) => {
  await page.goto('/docs');
  await signInByMail(page, mailbox, `menu-${Date.now()}@example.com`);
  const trigger = page.getByRole('button', { name: /Account menu/ });
  await trigger.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menu', { name: 'Account' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Dashboard' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Key' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Dashboard' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(page.getByRole('menuitem', { name: 'Dashboard' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu', { name: 'Account' })).toBeHidden();
  await expect(trigger).toBeFocused();
  // My Invitation opens its dialog; closing it gives focus back to the account button.
  await trigger.click();
  await page.getByRole('menuitem', { name: 'My Invitation' }).click();
  const invitation = page.getByRole('dialog', { name: 'My Invitation' });
  await expect(invitation.getByLabel('Invitation code')).toBeFocused();
  await invitation.getByRole('button', { name: 'Close' }).click();
  await expect(invitation).toBeHidden();
  await expect(trigger).toBeFocused();
});

test('after sign-in a suspended account sees the suspension notice first, then the information form', async ({
  page,
  request,
}) => {
  const email = `order-${Date.now()}@example.com`;
  // The account signs up through the API and is suspended; this browser then holds its fresh session with the
  // after-login steps still to run, as a sign-in link or an OAuth return leaves it on the next page.
  const session = await apiSession(request, email);
  admin('suspend', email);
  await holdPendingSession(page, session);

  await page.goto('/docs');
  const suspension = page.getByRole('dialog', { name: 'Account suspended' });
  await expect(suspension).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Tell us about you' })).toHaveCount(0);
  await suspension.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog', { name: 'Tell us about you' })).toBeVisible();
});

test('the information form is offered once per account: another browser of the same account is not asked again', async ({
  browser,
  request,
}) => {
  const email = `once-${Date.now()}@example.com`;
  const session = await apiSession(request, email);
  /** A fresh browser holding the account's session with the after-login steps to run, as after a sign-in link. */
  const signedInBrowser = async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await declineCookies(page);
    await holdPendingSession(page, session);
    await page.goto('/docs');
    await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible();
    return { context, page };
  };
  const first = await signedInBrowser();
  const form = first.page.getByRole('dialog', { name: 'Tell us about you' });
  await expect(form).toBeVisible();
  await form.getByRole('button', { name: 'Skip' }).click();
  await first.context.close();

  const second = await signedInBrowser();
  // The after-login steps have run (the key is stored) and the form was not offered again.
  await expect.poll(() => second.page.evaluate(() => localStorage.getItem('userKey'))).toBeTruthy();
  await expect(second.page.getByRole('dialog', { name: 'Tell us about you' })).toHaveCount(0);
  await second.context.close();
});
