// The first-time user's states, shot by scripts/screenshots.mjs at 390 and 1440 px into screenshots/states/: the
// open login modal (only the sign-in methods this server has), Buy disabled with its reason, the pricing page, the
// usage panel with runs, Run again's price question and Try it's, and the examples' costs. The `free` server runs on
// embedded defaults (no-model runs free, no payments, no OAuth); the `paid` one charges no-model runs in full, so a
// run there has a price to ask about.
import path from 'node:path';
import { screenshotContext } from './screenshot-context.mjs';

export const STATE_WIDTHS = [390, 1440];

/** Waits until every island has hydrated (the pre-rendered ones carry `ssr` until then). */
const hydrated = (page) =>
  page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0, null, { timeout: 15_000 });

/**
 * Each state: its name, the server and session it needs, the route, and how to reach it; `shot` says what to capture
 * (the whole page, or the viewport after the state scrolled its subject into view).
 */
export const STATES = [
  {
    name: 'login-modal',
    server: 'free',
    signedIn: false,
    route: '/playground/speech',
    shot: 'viewport',
    async reach(page) {
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.getByRole('dialog', { name: 'Log in or sign up' }).getByRole('button', { name: 'Continue' }).waitFor();
    },
  },
  {
    name: 'pricing',
    server: 'free',
    signedIn: false,
    route: '/pricing',
    shot: 'page',
    reach: (page) => page.locator('tbody[data-row]').first().waitFor(),
  },
  {
    name: 'buy-disabled',
    server: 'free',
    signedIn: true,
    route: '/pricing#credit-packs',
    shot: 'viewport',
    async reach(page) {
      const reason = page.locator('#payments-off');
      await reason.waitFor();
      await reason.scrollIntoViewIfNeeded();
      await page.getByRole('button', { name: /^Buy / }).first().scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'usage-runs',
    server: 'free',
    signedIn: true,
    route: '/dashboard',
    shot: 'viewport',
    async reach(page) {
      await page.getByTestId('usage-total').waitFor();
      await page.getByRole('button', { name: 'Runs', exact: true }).click();
      await page.getByTestId('usage-chart').scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'examples-cost',
    server: 'paid',
    signedIn: true,
    route: '/playground/speech',
    shot: 'viewport',
    async reach(page) {
      const cost = page.getByTestId('example-cost').first();
      await cost.waitFor();
      await page.waitForFunction(() =>
        /\d+ credits?\./.test(document.querySelector('[data-testid="example-cost"]')?.textContent ?? ''),
      );
      await cost.scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'run-again-confirm',
    server: 'paid',
    signedIn: true,
    route: '/playground/speech',
    shot: 'viewport',
    async reach(page) {
      const item = page.getByTestId('history').locator('[data-task-id]').first();
      await item.getByRole('button', { name: 'Run again…' }).click();
      const ask = item.getByTestId('paid-confirm');
      await ask.waitFor();
      await ask.scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'try-it-confirm',
    server: 'paid',
    signedIn: true,
    route: '/api-reference/ttsCommon',
    shot: 'viewport',
    async reach(page) {
      await page.getByRole('button', { name: 'Try this call' }).first().click();
      await page.getByRole('button', { name: 'Send request' }).click();
      const ask = page.getByTestId('paid-confirm');
      await ask.waitFor();
      await ask.scrollIntoViewIfNeeded();
    },
  },
];

/**
 * Shoots every state on its server (`servers.free` / `servers.paid`: { base, stored }) at STATE_WIDTHS into
 * `outDir`; answers what failed, so one missing state does not stop the rest.
 */
export async function shootStates(browser, servers, outDir, names = null) {
  const problems = [];
  for (const width of STATE_WIDTHS) {
    for (const state of STATES.filter((s) => !names || names.some((n) => s.name.includes(n)))) {
      const { base, stored } = servers[state.server];
      const context = await screenshotContext(browser, width, state.signedIn ? stored : {});
      const page = await context.newPage();
      const file = path.join(outDir, `${state.name}--${width}.png`);
      try {
        await page.goto(base + state.route, { waitUntil: 'networkidle' });
        await hydrated(page);
        await state.reach(page);
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: file, fullPage: state.shot === 'page' });
      } catch (error) {
        problems.push(`${state.name} @${width}: ${String(error?.message ?? error).split('\n')[0]}`);
      } finally {
        await context.close();
      }
    }
  }
  return problems;
}
