// Benchmarks of the tracking pipeline: stub gzip size, report() cost, worker throughput and drain after an outage in
// Chromium, collector ingest. `node bench/tracking.mjs` builds the site if stale (into SITE_DIR, default dist/) and
// prints every figure; `npm run bench` runs the same functions among the other benchmarks.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer as startAppServer } from './server.mjs';
import { collectorIngest as ingest } from './tracking-ingest.mjs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../tests/e2e/support/chromium.ts';

const root = path.resolve(import.meta.dirname, '..');
// The built site: SITE_DIR as the build script and the server read it, so parallel runs can build apart.
const dist = path.resolve(root, process.env.SITE_DIR || 'dist');
/** The target for the main-thread stub: 3 KB gzip, counting every chunk it loads. */
export const STUB_TARGET_GZIP_BYTES = 3072;

const gzipBytes = (code) => gzipSync(code).length;
/**
 * Chunks a built chunk imports statically (`import … from "./x.js"`, `import "./x.js"`); dynamic import() is not
 * followed.
 */
const staticImports = (url, code) =>
  [...code.matchAll(/(?:^|[;\s])import\s*(?:[^'"()`]*?from\s*)?["']([^"']+\.js)["']/g)].map((m) =>
    path.posix.join(path.posix.dirname(url), m[1]),
  );

/**
 * The BaseLayout tracking script and every chunk it imports statically, each gzipped on its own as it is served
 * (node's default level): all of it loads on every page before idle. Nothing is left out as "already needed by the
 * page". The chunks the stub loads later (the Comlink wrapper and the worker after idle, web vitals on 20 % of
 * loads) are listed apart and not counted.
 */
export function stubSize() {
  const page = path.join(dist, 'pricing/index.html');
  if (!existsSync(page)) throw new Error(`${page} is missing: build the site first (node scripts/build-site.mjs)`);
  const html = readFileSync(page, 'utf8');
  const entry = [...html.matchAll(/<script[^>]*src="([^"]+BaseLayout[^"]*\.js)"/g)].map((m) => m[1]);
  if (entry.length === 0) throw new Error('the BaseLayout tracking script was not found in pricing/index.html');
  const seen = new Set();
  const queue = [...entry];
  while (queue.length) {
    const url = queue.pop();
    if (seen.has(url) || !existsSync(path.join(dist, url))) continue;
    seen.add(url);
    queue.push(...staticImports(url, readFileSync(path.join(dist, url), 'utf8')));
  }
  const rows = [];
  let raw = 0;
  let gz = 0;
  let cryptoJs = false;
  for (const url of seen) {
    const code = readFileSync(path.join(dist, url));
    raw += code.length;
    gz += gzipBytes(code);
    if (/CryptoJS|crypto-js|indexedDB/i.test(code.toString())) cryptoJs = true;
    rows.push({
      chunk: url.replace('/_astro/', ''),
      loads: 'with the page',
      rawBytes: code.length,
      gzipBytes: gzipBytes(code),
    });
  }
  rows.push({
    chunk: `TOTAL main-thread stub (${seen.size} chunk${seen.size === 1 ? '' : 's'})`,
    loads: 'with the page',
    rawBytes: raw,
    gzipBytes: gz,
    targetGzipBytes: STUB_TARGET_GZIP_BYTES,
    met: gz <= STUB_TARGET_GZIP_BYTES ? 'yes' : 'NO',
    workerCodeInStub: cryptoJs ? 'YES (crypto-js or IndexedDB found)' : 'no',
  });
  const lazy = {
    'connect.': 'after idle (Comlink wrapper)',
    'tracking.worker-': 'after idle (worker)',
    'vitals.': '20 % of loads (web vitals)',
  };
  for (const name of readdirSync(path.join(dist, '_astro')).filter((n) => n.endsWith('.js'))) {
    const when = Object.entries(lazy).find(([prefix]) => name.startsWith(prefix))?.[1];
    if (!when) continue;
    const code = readFileSync(path.join(dist, '_astro', name));
    rows.push({ chunk: name, loads: `later: ${when}, not counted`, rawBytes: code.length, gzipBytes: gzipBytes(code) });
  }
  return rows;
}

/** The real server on the built site, with 1 s tracking batches. */
async function startServer() {
  const server = await startAppServer({ SITE_DIR: dist, TRACKING_BUFFER_S: '1' });
  return { base: server.url, stop: server.stop };
}

/** The goal for report() on the main thread: median µs per call over at least REPORT_CALLS calls. */
export const REPORT_GOAL_US = 5;
const REPORT_CALLS = 10_000;
/**
 * Calls timed together: the page clock is coarsened to 100 µs (no cross-origin isolation), so a block of 250 reads to
 * 0.4 µs a call.
 */
const REPORT_BLOCK = 250;

/**
 * report() on the main thread, median µs per call in blocks, timed two ways over REPORT_CALLS calls each: the calls
 * alone, and the calls with the hand-off to the worker they cause (the once-per-task message, run before the block's
 * clock stops); and events per second into the shared IndexedDB queue.
 */
export async function browserFigures() {
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.base}/pricing`);
    await page.waitForFunction(() => 'dreamTracker' in window);
    await page.evaluate(() => window.dreamTracker.status());
    const figures = await page.evaluate(
      async ({ calls, block }) => {
        const t = window.dreamTracker;
        const alone = [];
        const withHandOff = [];
        const nextTask = () => new Promise((r) => setTimeout(r, 0));
        for (let done = 0; done < calls; done += block) {
          let start = performance.now();
          for (let i = 0; i < block; i++) t.report({ id: 'bench_main_call', action: 'click', logmap: { i } });
          alone.push((performance.now() - start) / block);
          await nextTask();
          start = performance.now();
          for (let i = 0; i < block; i++) t.report({ id: 'bench_main_call', action: 'click', logmap: { i } });
          // The hand-off is a microtask queued by the block's first call: it runs before this await resumes.
          await null;
          withHandOff.push((performance.now() - start) / block);
          await nextTask();
        }
        const median = (list) => list.sort((a, b) => a - b)[list.length >> 1] * 1000;
        while (t.pendingCount() > 0) await new Promise((r) => setTimeout(r, 5));
        const n = 5000;
        const begin = performance.now();
        for (let i = 0; i < n; i++) t.report({ id: 'bench_worker_queue', action: 'show', logmap: { i } });
        while (t.pendingCount() > 0) await new Promise((r) => setTimeout(r, 2));
        return {
          alone: median(alone),
          withHandOff: median(withHandOff),
          queued: Math.round(n / ((performance.now() - begin) / 1000)),
        };
      },
      { calls: REPORT_CALLS, block: REPORT_BLOCK },
    );
    const met = (us) => (us <= REPORT_GOAL_US ? 'yes' : 'NO');
    return [
      {
        figure: `report() main-thread cost, median over ${REPORT_CALLS} calls`,
        value: Number(figures.alone.toFixed(2)),
        unit: 'µs per call',
        goal: `≤ ${REPORT_GOAL_US}`,
        met: met(figures.alone),
      },
      {
        figure: '  the same with the hand-off to the worker',
        value: Number(figures.withHandOff.toFixed(2)),
        unit: 'µs per call',
        goal: `≤ ${REPORT_GOAL_US}`,
        met: met(figures.withHandOff),
      },
      { figure: 'worker throughput into the shared queue', value: figures.queued, unit: 'events/s' },
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** How long the browser is offline in each outage run: long enough for several failed tries (1 s, 2 s, … backoff). */
const OUTAGE_MS = 5000;

/**
 * Drain after an outage: the page reports a full batch while offline (Playwright's setOffline), stays offline for
 * OUTAGE_MS, comes back online, and the time until the shared queue is empty (every entry acknowledged by the
 * collector) is measured. The server hands out the default 20 s buffer interval, the wait a retry used to have.
 */
export async function outageDrain(runs = 3) {
  const server = await startAppServer({ SITE_DIR: dist });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
  });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  try {
    const context = await browser.newContext();
    let failedSends = 0;
    context.on('requestfailed', (request) => {
      if (request.url().includes('/spider/api/v1/report/track_info')) failedSends++;
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/pricing`);
    await page.waitForFunction(() => 'dreamTracker' in window);
    const status = () => page.evaluate(() => window.dreamTracker.status());
    for (let s = await status(); !(s.leader && s.flags.configValid); s = await status()) await sleep(50);
    const drains = [];
    for (let run = 0; run < runs; run++) {
      const failedBefore = failedSends;
      await context.setOffline(true);
      await page.evaluate(() => {
        for (let i = 0; i < 20; i++)
          window.dreamTracker.report({ id: 'bench_outage_event', action: 'click', logmap: { i } });
      });
      await sleep(OUTAGE_MS);
      if (failedSends === failedBefore)
        throw new Error('no send failed while offline: the outage was not seen by the worker');
      await context.setOffline(false);
      const back = performance.now();
      while ((await status()).queued > 0 || (await page.evaluate(() => window.dreamTracker.pendingCount())) > 0)
        await sleep(10);
      drains.push(Math.round(performance.now() - back));
    }
    drains.sort((a, b) => a - b);
    return [
      {
        figure: `drain after outage (${OUTAGE_MS / 1000} s offline, 20 entries, 20 s buffer), median of ${runs}`,
        value: drains[drains.length >> 1],
        unit: 'ms',
      },
      { figure: 'drain after outage, each run', value: drains.join(' / '), unit: 'ms' },
      { figure: 'track_info sends failed while offline', value: failedSends, unit: 'count' },
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** Collector ingest next to its bare baseline (bench/tracking-ingest.mjs), on the server of the built site. */
export const collectorIngest = () => ingest(dist);

if (import.meta.url === `file://${process.argv[1]}`) {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-site.mjs'), '--if-stale'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const sizes = stubSize();
  console.log('\n## Tracking stub size (main thread, gzip; target ≤ 3 KB)');
  console.table(sizes);
  const total = sizes.find((row) => row.targetGzipBytes);
  console.log(
    `Stub: ${total.gzipBytes} B gzip with every chunk it imports; target ≤ ${STUB_TARGET_GZIP_BYTES} B: ${total.met === 'yes' ? 'met' : 'NOT met'}.`,
  );
  console.log('\n## Tracking in Chromium (report() cost, worker throughput)');
  console.table(await browserFigures());
  console.log('\n## Tracking after a network outage (Chromium offline, then online)');
  console.table(await outageDrain());
  console.log('\n## Tracking collector ingest (autocannon, loopback)');
  console.table(await collectorIngest());
}
