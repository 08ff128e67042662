// Benchmark: the API's hot endpoints (user info, getAsyncResult, playground poll) against bare node:http +
// better-sqlite3 on the same SQLite file. `node bench/api-throughput.mjs` prints the table alone; bench/run.mjs prints
// it with the others. BENCH_API_LOADER=tsx runs our server through the tsx loader instead of the built JavaScript, to
// compare the two.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { serverCommand } from '../scripts/server-command.mjs';

const root = path.resolve(import.meta.dirname, '..');
const CONNECTIONS = 10;
const WARMUP_S = 2;
/**
 * Each side is measured in SLICES short runs, interleaved ours/bare/bare/ours/…, so a change in the machine's other
 * load hits both alike.
 */
const SLICES = 6;
const SLICE_S = Number(process.env.BENCH_API_SLICE_S ?? 1.5);
const GOAL = 0.5;

function start(command, args, env, ready) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      if (seen.includes(ready))
        resolve({
          pid: child.pid,
          stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))),
        });
    });
    child.once('exit', (code) =>
      reject(new Error(`${command} ${args.join(' ')} exited with ${code} before it was ready`)),
    );
  });
}

const freePort = () => 20000 + Math.floor(Math.random() * 20000);

/** CPU seconds (user + system) a process has used so far, from /proc (clock ticks of 10 ms); null off Linux. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** One side's slices added up: requests, seconds, CPU seconds of its server, the worst slice's p99 and failures. */
function tally() {
  return { requests: 0, seconds: 0, cpu: 0, p99: 0, failed: 0 };
}

async function slice(side, url, request, seconds) {
  const before = cpuSeconds(side.pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, ...request });
  const after = cpuSeconds(side.pid);
  return {
    requests: result.requests.total,
    seconds: result.duration,
    cpu: before === null || after === null ? NaN : after - before,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors,
  };
}

function add(sum, part) {
  sum.requests += part.requests;
  sum.seconds += part.seconds;
  sum.cpu += part.cpu;
  sum.p99 = Math.max(sum.p99, part.p99);
  sum.failed += part.failed;
}

export async function apiThroughput() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-api-'));
  const env = {
    DATA_DIR: dataDir,
    SECRET_KEY: 'bench-secret-bench-secret-bench-secret-02',
    RATE_LIMIT_PER_MINUTE: '1000000000',
  };
  const fixture = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'bench/api-fixture.ts'],
    {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (fixture.status !== 0) throw new Error(`bench/api-fixture.ts failed with exit code ${fixture.status}`);
  const { dbPath, token, apiKey, taskId } = JSON.parse(fixture.stdout);

  const ourPort = freePort();
  const barePort = ourPort + 1;
  const { command, args } = await serverCommand({ loader: process.env.BENCH_API_LOADER ?? 'built' });
  const ours = await start(
    command,
    args,
    { ...env, PORT: String(ourPort), HOST: '127.0.0.1', SITE_DIR: path.join(dataDir, 'no-site') },
    'is running',
  );
  const bare = await start(
    process.execPath,
    [path.join(root, 'bench/bare-server.mjs'), dbPath, String(barePort)],
    {},
    'listening',
  );

  const json = { 'content-type': 'application/json' };
  // The playground polls from a browser page: same-origin POSTs carry Origin, and every browser offers compression.
  const browser = { origin: `http://localhost:${ourPort}`, 'accept-encoding': 'gzip, deflate, br, zstd' };
  const endpoints = [
    {
      name: 'POST /user/info (session token)',
      path: '/user/info',
      request: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', token } },
    },
    {
      name: 'POST /api/getAsyncResult (Bearer key)',
      path: '/api/getAsyncResult',
      request: {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ taskId }),
      },
    },
    {
      name: 'POST /api-playground/…/poll (browser session)',
      path: '/api-playground/video_tools/v1/poll',
      request: { method: 'POST', headers: { ...json, ...browser, token }, body: JSON.stringify({ taskId }) },
    },
  ];
  const rows = [];
  try {
    for (const endpoint of endpoints) {
      const sides = [
        { server: ours, url: `http://127.0.0.1:${ourPort}${endpoint.path}`, sum: tally() },
        { server: bare, url: `http://127.0.0.1:${barePort}${endpoint.path}`, sum: tally() },
      ];
      for (const side of sides) await slice(side.server, side.url, endpoint.request, WARMUP_S);
      for (let i = 0; i < SLICES; i += 1) {
        // ABBA order: ours, bare, bare, ours, …
        const order = i % 2 === 0 ? sides : [...sides].reverse();
        for (const side of order) add(side.sum, await slice(side.server, side.url, endpoint.request, SLICE_S));
      }
      const [a, b] = sides.map((side) => side.sum);
      const rps = (s) => s.requests / s.seconds;
      const ratio = rps(a) / rps(b);
      rows.push({
        endpoint: endpoint.name,
        'ours req/s': Math.round(rps(a)),
        'bare req/s': Math.round(rps(b)),
        ratio: Number(ratio.toFixed(2)),
        [`goal ≥ ${GOAL}×`]: ratio >= GOAL ? 'met' : 'not met',
        'ours CPU µs/req': Math.round((a.cpu / a.requests) * 1e6),
        'bare CPU µs/req': Math.round((b.cpu / b.requests) * 1e6),
        'ours p99 ms': a.p99,
        'bare p99 ms': b.p99,
        failed: a.failed + b.failed,
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
