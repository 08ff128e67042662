// `npm run screenshots [-- word …]`: every route of the built site at 390, 820 and 1440 px, signed out and signed in,
// as PNGs in screenshots/. It starts the real server on embedded defaults in a temporary data folder, signs a user in
// through the real email-code flow (a local SMTP server receives the code), and prints the console errors any page
// logged. Words narrow the routes to those containing one of them, e.g. `npm run screenshots -- dashboard reference`.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { freePort } from '../server/test-support/free-port.ts';
import { startTestSmtp } from '../server/test-support/smtp.ts';

const root = path.resolve(import.meta.dirname, '..');
const siteDir = path.resolve(root, process.env.SITE_DIR || 'dist');
const outDir = path.resolve(root, process.env.SCREENSHOTS_DIR || 'screenshots');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const WIDTHS = [390, 820, 1440];
/** A phone is taller than it is wide; the others get a laptop-ish height. Full-page shots show the rest. */
const heightOf = (width) => (width < 600 ? 844 : 900);
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
const EMAIL = 'screenshots@dreamapi.test';
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');

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

/** A real SMTP server that keeps the sign-in codes mailed to each address. */
async function startMailbox(port) {
  const codes = new Map();
  const server = await startTestSmtp((raw, recipients) => {
    const code = /sign-in code(?: is|:) (\d{4})/.exec(raw)?.[1];
    for (const rcpt of recipients) if (code) codes.set(rcpt, code);
  }, port);
  return {
    async code(email) {
      for (let i = 0; i < 200; i++) {
        if (codes.has(email)) return codes.get(email);
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no sign-in code was mailed to ${email}`);
    },
    close: () => server.close(),
  };
}

async function waitForServer(base, child) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not answer /healthz within 60 s');
}

/** A product API call (form-encoded, SPEC.md §7) that returns `data` or throws the envelope's message. */
async function call(base, route, fields, headers = {}) {
  const res = await fetch(base + route, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });
  const body = await res.json();
  if (body.code !== 0) throw new Error(`${route}: ${body.msg}`);
  return body.data;
}

/**
 * Signs EMAIL in with the mailed code, gives it credits and one finished speech task, and returns its stored session.
 */
async function signIn(base, mailbox, env) {
  const { attemptId } = await call(base, '/user/code', { email: EMAIL, type: 'login' });
  const code = await mailbox.code(EMAIL);
  const { token, userId } = await call(base, '/user/email/login', { email: EMAIL, code, attemptId });
  execFileSync(process.execPath, [tsx, 'server/admin/cli.ts', 'grant', EMAIL, '500', '--note', 'screenshots'], {
    cwd: root,
    env,
    stdio: 'ignore',
  });
  const { key } = await call(base, '/apply/playground', { userId }, { token });
  // One task, so the history and billing pages have a row to show; a failure here only leaves them empty.
  await fetch(`${base}/api/async/do_tts_common`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'Hello from the screenshots.' }),
  }).catch(() => undefined);
  return { userToken: token, userId, userKey: key, hasRead: JSON.stringify([userId]) };
}

async function shoot(browser, base, routes, state, stored) {
  const errors = [];
  for (const width of WIDTHS) {
    const context = await browser.newContext({
      viewport: { width, height: heightOf(width) },
      deviceScaleFactor: 1,
      isMobile: width < 600,
      hasTouch: width < 600,
    });
    // Storage as the site keeps it (SPEC.md §3 keys): cookies declined so the banner does not cover the page.
    await context.addInitScript(
      (items) => {
        for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
      },
      { 'cookie-accpet': 'declined', ...stored },
    );
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

  const [port, smtpPort] = [await freePort(), await freePort()];
  const base = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dreamapi-screenshots-'));
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    SITE_DIR: siteDir,
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  };
  const mailbox = await startMailbox(smtpPort);
  const server = spawn(process.execPath, [tsx, 'server/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let browser;
  try {
    await waitForServer(base, server);
    const stored = await signIn(base, mailbox, env);
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    const errors = [
      ...(await shoot(browser, base, routes, 'signed-out', {})),
      ...(await shoot(browser, base, routes, 'signed-in', stored)),
    ];
    const views = routes.length + OPENED.filter((v) => routes.includes(v.route)).length;
    console.log(
      `Wrote ${views * WIDTHS.length * 2} screenshots of ${routes.length} routes (and their opened panels) to ${path.relative(root, outDir)}/`,
    );
    if (errors.length) console.log(`Console errors (${errors.length}):\n  ${errors.join('\n  ')}`);
  } finally {
    await browser?.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode !== null ? resolve() : server.once('exit', resolve)));
    await mailbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
