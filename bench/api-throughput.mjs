// Benchmark: the API's hot endpoints (user info, getAsyncResult, playground poll) against bare node:http + better-sqlite3 on the same SQLite file.
// `node bench/api-throughput.mjs` prints the table alone; bench/run.mjs prints it with the others.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { serverCommand } from '../scripts/server-command.mjs';

const root = path.resolve(import.meta.dirname, '..');
const CONNECTIONS = 10;
const WARMUP_S = 2;
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
const GOAL = 0.5;

function start(command, args, env, ready) {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      if (seen.includes(ready)) resolve({ stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))) });
    });
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited with ${code} before it was ready`)));
  });
}

const freePort = () => 20000 + Math.floor(Math.random() * 20000);

async function load(url, request, seconds) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, ...request });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

export async function apiThroughput() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-api-'));
  const env = { DATA_DIR: dataDir, SECRET_KEY: 'bench-secret-bench-secret-bench-secret-02', RATE_LIMIT_PER_MINUTE: '1000000000' };
  const fixture = spawnSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'bench/api-fixture.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (fixture.status !== 0) throw new Error(`bench/api-fixture.ts failed with exit code ${fixture.status}`);
  const { dbPath, token, apiKey, taskId } = JSON.parse(fixture.stdout);

  const ourPort = freePort();
  const barePort = ourPort + 1;
  const { command, args } = serverCommand();
  const ours = await start(command, args, { ...env, PORT: String(ourPort), HOST: '127.0.0.1', SITE_DIR: path.join(dataDir, 'no-site') }, 'is running');
  const bare = await start(process.execPath, [path.join(root, 'bench/bare-server.mjs'), dbPath, String(barePort)], {}, 'listening');

  const json = { 'content-type': 'application/json' };
  const endpoints = [
    { name: 'POST /user/info (session token)', path: '/user/info', request: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', token } } },
    { name: 'POST /api/getAsyncResult (Bearer key)', path: '/api/getAsyncResult', request: { method: 'POST', headers: { ...json, authorization: `Bearer ${apiKey}` }, body: JSON.stringify({ taskId }) } },
    { name: 'POST /api-playground/…/poll (session token)', path: '/api-playground/video_tools/v1/poll', request: { method: 'POST', headers: { ...json, token }, body: JSON.stringify({ taskId }) } },
  ];
  const rows = [];
  try {
    for (const endpoint of endpoints) {
      const urls = { ours: `http://127.0.0.1:${ourPort}${endpoint.path}`, bare: `http://127.0.0.1:${barePort}${endpoint.path}` };
      // Warm both (JIT, statement caches), then measure each in turn in the same run, so the ratio holds on a busy machine.
      await load(urls.ours, endpoint.request, WARMUP_S);
      await load(urls.bare, endpoint.request, WARMUP_S);
      const a = await load(urls.ours, endpoint.request, SECONDS);
      const b = await load(urls.bare, endpoint.request, SECONDS);
      const ratio = a.rps / b.rps;
      rows.push({
        endpoint: endpoint.name,
        'ours req/s': Math.round(a.rps),
        'bare req/s': Math.round(b.rps),
        ratio: Number(ratio.toFixed(2)),
        [`goal ≥ ${GOAL}×`]: ratio >= GOAL ? 'met' : 'not met',
        'ours p99 ms': a.p99,
        'bare p99 ms': b.p99,
        'ours non-2xx': a.non2xx,
        'bare non-2xx': b.non2xx,
      });
    }
  } finally {
    await ours.stop();
    await bare.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await apiThroughput());
