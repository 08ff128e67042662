// Playwright configuration: real Chromium from the system against the real server started for the run.
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { accountsServerEnv, E2E_APP_PORT } from './support/accounts-env';
import { paymentsServerEnv } from './support/payments-env';
import { billingServerEnv } from './support/billing-env';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './support/chromium';

const chromium = CHROMIUM_PATH;
if (!existsSync(chromium)) {
  // Never skip silently: the end-to-end suite is part of `npm test`.
  throw new Error(
    `Chromium was not found at ${chromium}. Install it with "apt-get update && apt-get install -y chromium" ` +
      '(as root) or point CHROMIUM_PATH at a Chromium binary. Do not use "playwright install".',
  );
}

const port = E2E_APP_PORT;
const baseURL = `http://localhost:${port}`;
const dataDir = process.env.E2E_DATA_DIR || mkdtempSync(path.join(os.tmpdir(), 'dreamapi-e2e-'));
// Test workers re-read this file: sharing the folder lets specs read the server's database (tracking export).
process.env.E2E_DATA_DIR = dataDir;
const root = path.resolve(import.meta.dirname, '../..');
const siteDir = process.env.SITE_DIR || path.join(root, 'dist');
/**
 * Specs that sign nobody in and read only what their own guest session made: each of their tests may run on its own.
 */
const GUEST_SPECS = [
  'pages.spec.ts',
  'site.spec.ts',
  'smoke.spec.ts',
  'features.spec.ts',
  'tracking.spec.ts',
  'tracking-stay.spec.ts',
];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './support/global-setup.ts',
  // Parallel runs (other ports) each need their own artifacts folder, or one run's cleanup deletes the other's traces.
  outputDir: process.env.E2E_OUTPUT_DIR || path.join(root, 'test-results/e2e'),
  // Two workers. Flows sign in through the run's one mailbox (support/global-setup.ts) and each fake on a fixed port
  // (identity providers, payments) belongs to one spec file, so any two files may run side by side.
  workers: 2,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: path.join(root, 'test-results/e2e-results.json') }]],
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    // Recording a trace for every test costs CPU the whole suite waits on; a failure keeps its screenshot and page
    // snapshot, and `--trace retain-on-failure` on the command line records traces when one is needed.
    trace: 'off',
    launchOptions: {
      executablePath: chromium,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [
    // Flows first: their long files start at once, and the many short page checks fill in around them.
    { name: 'flows', testIgnore: GUEST_SPECS, use: { ...devices['Desktop Chrome'], channel: undefined } },
    {
      name: 'guest',
      testMatch: GUEST_SPECS,
      fullyParallel: true,
      use: { ...devices['Desktop Chrome'], channel: undefined },
    },
  ],
  webServer: {
    // The server runs as built JavaScript, as npm start runs it.
    command: 'node scripts/build-site.mjs --if-stale && node scripts/build-server.mjs && node dist-server/main.mjs',
    cwd: root,
    url: `${baseURL}/healthz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      SITE_DIR: siteDir,
      LOG_LEVEL: 'warn',
      // Loopback is the proxy, so a spec may name its client's address (support/test-network.ts).
      TRUST_PROXY: 'loopback',
      PUBLIC_URL: baseURL,
      // Short tracking batches (handed out by track_config) so tracking specs need not wait the 20 s default.
      TRACKING_BUFFER_S: '1',
      TRACKING_BATCH_SIZE: '5',
      // Account specs: a real SMTP server and local identity providers the specs start on these ports.
      ...accountsServerEnv(port),
      // Payments spec: a local stand-in for Stripe's API on a port of its own.
      ...paymentsServerEnv(port),
      ...billingServerEnv(),
    },
  },
});
