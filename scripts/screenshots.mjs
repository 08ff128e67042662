// `npm run screenshots [-- word …]`: every route of the built site at 390, 820 and 1440 px, signed out and signed in,
// as PNGs in screenshots/, then the first-time user's states (scripts/screenshot-states.mjs) at 390 and 1440 px in
// screenshots/states/. It starts the real server on embedded defaults (and one that charges no-model runs, for the
// price questions) in temporary data folders, signs a user in through the real email-code flow (a local SMTP server
// receives the code), and prints the console errors any page logged. Words narrow the routes and states to those
// containing one of them, e.g. `npm run screenshots -- dashboard reference`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { screenshotContext } from './screenshot-context.mjs';
import { shootStates, STATE_WIDTHS, STATES } from './screenshot-states.mjs';
import { signIn, startMailbox, startServer } from './screenshot-server.mjs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../tests/e2e/support/chromium.ts';

const root = path.resolve(import.meta.dirname, '..');
const siteDir = path.resolve(root, process.env.SITE_DIR || 'dist');
const outDir = path.resolve(root, process.env.SCREENSHOTS_DIR || 'screenshots');
const WIDTHS = [390, 820, 1440];
/** Routes that differ by query only, or that exist to show a redirect, beside those the build wrote. */
const NOT_FOUND_ROUTES = ['/playground/bogus?x=1'];
const EXTRA_ROUTES = [
  '/dashboard?type=key',
  '/dashboard?type=requests',
  '/dashboard?type=billing',
  '/payment?status=success',
  ...NOT_FOUND_ROUTES,
];
// Panels that open on a click are shot opened too, as `<route>+<name>`.
const openCode = async (page) => {
  await page.getByRole('button', { name: 'View code' }).click();
  await page.getByTestId('run-code').waitFor();
};
const OPENED = [
  { route: '/playground/speech', name: 'view-code', open: openCode },
  {
    route: '/playground/speech',
    name: 'advanced-settings',
    open: (page) => page.getByText('Advanced settings', { exact: true }).click(),
  },
  { route: '/playground/textToVideo', name: 'view-code', open: openCode },
];

/** Every page the build wrote (…/index.html), as routes; / is left out since it only redirects to /playground. */
function builtRoutes(dir, prefix = '') {
  const routes = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (name === '_astro' || !statSync(full).isDirectory()) continue;
    if (existsSync(path.join(full, 'index.html'))) routes.push(`${prefix}/${name}`);
    routes.push(...builtRoutes(full, `${prefix}/${name}`));
  }
  return routes;
}

/** A file name for a route: /api-reference/ttsCommon?x=1 → api-reference_ttsCommon_x-1. */
const slug = (route) => route.replace(/^\//, '').replace(/[/?&]/g, '_').replace(/=/g, '-') || 'root';

async function shoot(browser, base, routes, state, stored) {
  const errors = [];
  for (const width of WIDTHS) {
    const context = await screenshotContext(browser, width, stored);
    const page = await context.newPage();
    let current = '';
    page.on('console', (m) => {
      // A not-found route answers its own document with a 404 (then redirects): that one error is expected.
      const expected = NOT_FOUND_ROUTES.includes(current) && m.text().includes('status of 404');
      if (m.type() === 'error' && !expected) errors.push(`${current} @${width} ${state}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`${current} @${width} ${state}: ${e.message}`));
    for (const route of routes) {
      current = route;
      await page.goto(base + route, { waitUntil: 'networkidle' });
      // Islands hydrate on idle or when visible: scroll through so every one has rendered, then back to the top.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += innerHeight) {
          scrollTo(0, y);
          await new Promise((r) => requestAnimationFrame(r));
        }
        scrollTo(0, 0);
      });
      await page
        .waitForFunction(
          () => document.querySelectorAll('astro-island[ssr]:not([client="visible"])').length === 0,
          null,
          { timeout: 10_000 },
        )
        .catch(() => undefined);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: path.join(outDir, `${slug(route)}--${width}--${state}.png`), fullPage: true });
      for (const view of OPENED.filter((v) => v.route === route)) {
        await page.goto(base + route, { waitUntil: 'networkidle' });
        // A panel that is not there (a feature this server does not serve) is noted, not fatal.
        const opened = await view.open(page).then(
          () => true,
          (e) => errors.push(`${route}+${view.name} @${width} ${state}: ${e.message.split('\n')[0]}`) && false,
        );
        if (!opened) continue;
        await page.waitForLoadState('networkidle');
        await page.screenshot({
          path: path.join(outDir, `${slug(route)}+${view.name}--${width}--${state}.png`),
          fullPage: true,
        });
      }
    }
    await context.close();
  }
  return errors;
}

async function main() {
  const words = process.argv.slice(2);
  execFileSync(process.execPath, [path.join(root, 'scripts/build-site.mjs'), '--if-stale'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, SITE_DIR: siteDir },
  });
  const routes = [...builtRoutes(siteDir), ...EXTRA_ROUTES].filter(
    (r) => words.length === 0 || words.some((w) => r.includes(w)),
  );
  mkdirSync(outDir, { recursive: true });

  const mailbox = await startMailbox();
  // The embedded defaults (no-model runs free, no payments, no OAuth), and beside it one that charges no-model runs in
  // full, so Run again and Try it have a price to ask about.
  const free = await startServer(siteDir, mailbox.port, {});
  const paid = await startServer(siteDir, mailbox.port, { NO_MODEL_PRICE: 'full' });
  let browser;
  try {
    const [freeStored, paidStored] = [await signIn(free, mailbox), await signIn(paid, mailbox)];
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
    });
    const errors = [
      ...(await shoot(browser, free.base, routes, 'signed-out', {})),
      ...(await shoot(browser, free.base, routes, 'signed-in', freeStored)),
    ];
    const views = routes.length + OPENED.filter((v) => routes.includes(v.route)).length;
    console.log(
      `Wrote ${views * WIDTHS.length * 2} screenshots of ${routes.length} routes (and their opened panels) to ${path.relative(root, outDir)}/`,
    );
    // The first-time user's states (narrowed by the same words, matched against their names).
    const statesDir = path.join(outDir, 'states');
    mkdirSync(statesDir, { recursive: true });
    const states = STATES.filter(
      (s) => words.length === 0 || words.some((w) => s.name.includes(w) || s.route.includes(w)),
    );
    const missed = await shootStates(
      browser,
      { free: { base: free.base, stored: freeStored }, paid: { base: paid.base, stored: paidStored } },
      statesDir,
      states.map((s) => s.name),
    );
    console.log(
      `Wrote ${states.length * STATE_WIDTHS.length - missed.length} state screenshots to ${path.relative(root, statesDir)}/`,
    );
    if (missed.length) console.log(`States not reached (${missed.length}):\n  ${missed.join('\n  ')}`);
    if (errors.length) console.log(`Console errors (${errors.length}):\n  ${errors.join('\n  ')}`);
    if (missed.length) process.exitCode = 1;
  } finally {
    await browser?.close();
    await free.stop();
    await paid.stop();
    await mailbox.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
