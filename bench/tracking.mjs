// Benchmarks of the tracking pipeline: stub gzip size, report() cost, worker throughput and drain after an outage in Chromium, collector ingest.
// `node bench/tracking.mjs` builds the site if stale (into SITE_DIR, default dist/) and prints every figure;
// `npm run bench` runs the same functions among the other benchmarks.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { chromium } from 'playwright-core';
import { startServer as startAppServer } from './server.mjs';

const root = path.resolve(import.meta.dirname, '..');
// The built site: SITE_DIR as the build script and the server read it, so parallel runs can build apart.
const dist = path.resolve(root, process.env.SITE_DIR || 'dist');
const BATCH = 20;
/** The target for the main-thread stub: 3 KB gzip, counting every chunk it loads. */
export const STUB_TARGET_GZIP_BYTES = 3072;

const gzipBytes = (code) => gzipSync(code).length;
/** Chunks a built chunk imports statically (`import … from "./x.js"`, `import "./x.js"`); dynamic import() is not followed. */
const staticImports = (url, code) =>
  [...code.matchAll(/(?:^|[;\s])import\s*(?:[^'"()`]*?from\s*)?["']([^"']+\.js)["']/g)].map((m) => path.posix.join(path.posix.dirname(url), m[1]));

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
    rows.push({ chunk: url.replace('/_astro/', ''), loads: 'with the page', rawBytes: code.length, gzipBytes: gzipBytes(code) });
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
  const lazy = { 'connect.': 'after idle (Comlink wrapper)', 'tracking.worker-': 'after idle (worker)', 'vitals.': '20 % of loads (web vitals)' };
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

/** report() on the main thread (median µs per call) and events per second into the shared IndexedDB queue. */
export async function browserFigures() {
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.base}/pricing`);
    await page.waitForFunction(() => 'dreamTracker' in window);
    await page.evaluate(() => window.dreamTracker.status());
    return await page.evaluate(async () => {
      const t = window.dreamTracker;
      const samples = [];
      // The page clock is coarsened (no cross-origin isolation), so blocks of 50 calls are timed and averaged.
      for (let block = 0; block < 40; block++) {
        const start = performance.now();
        for (let i = 0; i < 50; i++) t.report({ id: 'bench_main_call', action: 'click', logmap: { i } });
        samples.push((performance.now() - start) / 50);
      }
      samples.sort((a, b) => a - b);
      const median = samples[samples.length >> 1] * 1000;
      while (t.pendingCount() > 0) await new Promise((r) => setTimeout(r, 5));
      const n = 5000;
      const begin = performance.now();
      for (let i = 0; i < n; i++) t.report({ id: 'bench_worker_queue', action: 'show', logmap: { i } });
      while (t.pendingCount() > 0) await new Promise((r) => setTimeout(r, 2));
      const seconds = (performance.now() - begin) / 1000;
      return [
        { figure: 'report() main-thread cost, median', value: Number(median.toFixed(2)), unit: 'µs per call' },
        { figure: 'worker throughput into the shared queue', value: Math.round(n / seconds), unit: 'events/s' },
      ];
    });
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
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
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
        for (let i = 0; i < 20; i++) window.dreamTracker.report({ id: 'bench_outage_event', action: 'click', logmap: { i } });
      });
      await sleep(OUTAGE_MS);
      if (failedSends === failedBefore) throw new Error('no send failed while offline: the outage was not seen by the worker');
      await context.setOffline(false);
      const back = performance.now();
      while ((await status()).queued > 0 || (await page.evaluate(() => window.dreamTracker.pendingCount())) > 0) await sleep(10);
      drains.push(Math.round(performance.now() - back));
    }
    drains.sort((a, b) => a - b);
    return [
      { figure: `drain after outage (${OUTAGE_MS / 1000} s offline, 20 entries, 20 s buffer), median of ${runs}`, value: drains[drains.length >> 1], unit: 'ms' },
      { figure: 'drain after outage, each run', value: drains.join(' / '), unit: 'ms' },
      { figure: 'track_info sends failed while offline', value: failedSends, unit: 'count' },
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** The wire cipher of docs/tracking-protocol.md with Node's crypto (the browser uses crypto-js; tests prove they agree). */
function sealEntries(entries, ak) {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', Buffer.from(ak, 'hex'), iv);
  return Buffer.concat([iv, cipher.update(JSON.stringify(entries), 'utf8'), cipher.final()]).toString('base64');
}
const signedText = (f) => [f.token, f.produceId, f.queueId, String(f.sendTime), String(f.batchCount), f.msgEncrypt].join('\n');
const signBatch = (text, ak) => createHmac('sha256', Buffer.from(ak, 'hex')).update(text).digest('hex');

/** Collector ingest: real sealed batches of 20 entries with fresh ids, over loopback, driven by autocannon. */
export async function collectorIngest() {
  const server = await startServer();
  try {
    const post = async (p, body) => (await (await fetch(server.base + p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json()).data;
    // Batches come from 10 devices, 300 each: under the 600 a minute one device may send (TRACKING_BATCH_LIMITS).
    const sessions = [];
    for (let d = 0; d < 10; d++) {
      const session = await post('/spider/api/v1/access_token', { app_key: 'dreamapi-web', device_id: `bench-${d}` });
      const { ak } = await post('/spider/api/v1/report/track_config', { token: session.token, sign: session.sign });
      sessions.push({ ...session, ak });
    }
    const bodies = [];
    let n = 0;
    for (let b = 0; b < 3000; b++) {
      const { ak, ...session } = sessions[b % sessions.length];
      const entries = Array.from({ length: BATCH }, () => ({ entryId: `bench-${++n}`, coldStartId: 'bench', seqId: (n % 10000) + 1, uid: '', time: Date.now(), oid: 'bench_ingest_event', action: 1, foid: '', ffid: '', logmap: { n } }));
      const fields = { token: session.token, produceId: session.produceId, queueId: String(100000000 + b), sendTime: Date.now(), batchCount: BATCH, msgEncrypt: sealEntries(entries, ak) };
      bodies.push(JSON.stringify({ ...fields, sign: signBatch(signedText(fields), ak) }));
    }
    let next = 0;
    const result = await autocannon({
      url: `${server.base}/spider/api/v1/report/track_info`,
      connections: 10,
      amount: bodies.length,
      requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }) }],
    });
    return [
      { figure: 'collector ingest', value: Math.round(result.requests.average * BATCH), unit: 'events/s' },
      { figure: 'collector batches', value: Math.round(result.requests.average), unit: 'requests/s' },
      { figure: 'latency p50 / p99', value: `${result.latency.p50} / ${result.latency.p99}`, unit: 'ms' },
      { figure: 'non-2xx answers', value: result.non2xx, unit: 'count' },
    ];
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-site.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const sizes = stubSize();
  console.log('\n## Tracking stub size (main thread, gzip; target ≤ 3 KB)');
  console.table(sizes);
  const total = sizes.find((row) => row.targetGzipBytes);
  console.log(`Stub: ${total.gzipBytes} B gzip with every chunk it imports; target ≤ ${STUB_TARGET_GZIP_BYTES} B: ${total.met === 'yes' ? 'met' : 'NOT met'}.`);
  console.log('\n## Tracking in Chromium (report() cost, worker throughput)');
  console.table(await browserFigures());
  console.log('\n## Tracking after a network outage (Chromium offline, then online)');
  console.table(await outageDrain());
  console.log('\n## Tracking collector ingest (autocannon, loopback)');
  console.table(await collectorIngest());
}
