// Benchmarks of the tracking pipeline: stub gzip size, report() cost and worker throughput in Chromium, collector ingest.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const BATCH = 20;

/** The BaseLayout tracking script and the chunks it imports statically (the worker, cipher and vitals load later). */
export function stubSize() {
  const html = readFileSync(path.join(dist, 'pricing/index.html'), 'utf8');
  const entry = [...html.matchAll(/<script[^>]*src="([^"]+BaseLayout[^"]*\.js)"/g)].map((m) => m[1]);
  const seen = new Set();
  const queue = [...entry];
  while (queue.length) {
    const url = queue.pop();
    if (seen.has(url) || !existsSync(path.join(dist, url))) continue;
    seen.add(url);
    const code = readFileSync(path.join(dist, url), 'utf8');
    for (const m of code.matchAll(/(?:^|[;\s])import\s*(?:[^'"()]*?from\s*)?["']([^"']+\.js)["']/g)) queue.push(path.posix.join(path.posix.dirname(url), m[1]));
  }
  let raw = 0;
  let gz = 0;
  let cryptoJs = false;
  for (const url of seen) {
    const code = readFileSync(path.join(dist, url));
    raw += code.length;
    gz += gzipSync(code).length;
    if (/CryptoJS|crypto-js/i.test(code.toString())) cryptoJs = true;
  }
  return [{ chunks: seen.size, rawBytes: raw, gzipBytes: gz, targetGzipBytes: 3072, cryptoJsInMainThread: cryptoJs }];
}

async function startServer() {
  const port = 8900 + Math.floor(Math.random() * 90);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-tracking-'));
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SITE_DIR: dist, LOG_LEVEL: 'error', TRACKING_BUFFER_S: '1', PUBLIC_URL: `http://localhost:${port}` },
    stdio: 'ignore',
  });
  const base = `http://localhost:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { base, stop: () => child.kill('SIGTERM') };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  throw new Error('server did not start');
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
    server.stop();
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
    const session = await post('/spider/api/v1/access_token', { app_key: 'dreamapi-web', device_id: 'bench' });
    const { ak } = await post('/spider/api/v1/report/track_config', { token: session.token, sign: session.sign });
    const bodies = [];
    let n = 0;
    for (let b = 0; b < 3000; b++) {
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
    server.stop();
  }
}
