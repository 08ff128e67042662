// Collector ingest benchmark: real sealed batches of 20 entries over loopback (autocannon) into the real server and, as
// the baseline in the same run, into a bare node:http + better-sqlite3 handler (bench/tracking-bare.mjs) doing the same
// work.
import { spawn } from 'node:child_process';
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startServer } from './server.mjs';

export const BATCH = 20;
/** Batches per measured run: long enough that start-up and the last stragglers are a small part of it. */
export const RUN_BATCHES = 4000;
/** Concurrent senders: 10 as in the first measurement, and 100, nearer a collector's many browsers at once. */
export const SENDERS = [10, 100];
/** Batches one device sends in a run: under the 600 a minute TRACKING_BATCH_LIMITS allows it. */
const PER_DEVICE = 400;

/**
 * The wire cipher of docs/tracking-protocol.md with Node's crypto (the browser uses crypto-js; tests prove they agree).
 */
function sealEntries(entries, ak) {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', Buffer.from(ak, 'hex'), iv);
  return Buffer.concat([iv, cipher.update(JSON.stringify(entries), 'utf8'), cipher.final()]).toString('base64');
}
const signedText = (f) =>
  [f.token, f.produceId, f.queueId, String(f.sendTime), String(f.batchCount), f.msgEncrypt].join('\n');
const signBatch = (text, ak) => createHmac('sha256', Buffer.from(ak, 'hex')).update(text).digest('hex');

/**
 * CPU seconds used so far by a process and its descendants (the server runs under tsx, whose launcher starts the real
 * process as a child), from /proc: unlike wall time, it is not stretched by other programs on a busy machine.
 */
export function cpuSeconds(pid) {
  const read = (file) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return 0;
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let seconds = (Number(fields[11]) + Number(fields[12])) / 100;
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    // the process is gone
  }
  for (const task of tasks) {
    for (const child of read(`/proc/${pid}/task/${task}/children`).split(' ').filter(Boolean))
      seconds += cpuSeconds(child);
  }
  return seconds;
}

/**
 * A bare baseline collector (`script`: tracking-bare.mjs or tracking-bare-pg.mjs, beside this file) on a random port,
 * storing into `store` (its SQLite file or PostgreSQL URL) and checking tokens with the real server's tracking secret.
 */
export async function startBare(script, store, secret) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [path.join(import.meta.dirname, script), store, String(port), secret], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`the bare collector stopped (exit code ${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
  };
}

/** Sealed track_info bodies with fresh entry ids, from enough devices (tokens of the real server) to stay in budget. */
export async function makeBodies(base, count, label) {
  const post = async (p, body) =>
    (
      await (
        await fetch(base + p, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()
    ).data;
  const sessions = [];
  for (let d = 0; d < Math.ceil(count / PER_DEVICE); d++) {
    const session = await post('/spider/api/v1/access_token', {
      app_key: 'dreamapi-web',
      device_id: `bench-${label}-${d}`,
    });
    const { ak } = await post('/spider/api/v1/report/track_config', { token: session.token, sign: session.sign });
    sessions.push({ ...session, ak });
  }
  const bodies = [];
  let n = 0;
  for (let b = 0; b < count; b++) {
    const { ak, ...session } = sessions[b % sessions.length];
    const entries = Array.from({ length: BATCH }, () => ({
      entryId: `bench-${label}-${++n}`,
      coldStartId: 'bench',
      seqId: (n % 10000) + 1,
      uid: '',
      time: Date.now(),
      oid: 'bench_ingest_event',
      action: 1,
      foid: '',
      ffid: '',
      logmap: { n },
    }));
    const fields = {
      token: session.token,
      produceId: session.produceId,
      queueId: String(100000000 + b),
      sendTime: Date.now(),
      batchCount: BATCH,
      msgEncrypt: sealEntries(entries, ak),
    };
    bodies.push(JSON.stringify({ ...fields, sign: signBatch(signedText(fields), ak) }));
  }
  return bodies;
}

/**
 * Sends every body once with `connections` in flight: events per second over the run's wall time, and the server's CPU
 * per batch.
 */
export async function drive({ url, pid }, bodies, connections) {
  let next = 0;
  const cpu = cpuSeconds(pid);
  const started = performance.now();
  // The run ends at its last answer: autocannon settles its promise only on its next one-second tick, so timing the
  // promise rounded every figure to 80,000 events over a whole number of seconds (80k, 40k, 26.7k, 20k events/s).
  let last = started;
  const result = await autocannon({
    url: `${url}/spider/api/v1/report/track_info`,
    connections,
    amount: bodies.length,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }),
        onResponse: () => void (last = performance.now()),
      },
    ],
  });
  const seconds = (last - started) / 1000;
  const cpuUs = ((cpuSeconds(pid) - cpu) * 1e6) / bodies.length;
  return {
    eventsPerS: Math.round((bodies.length * BATCH) / seconds),
    cpuUs: Math.round(cpuUs),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors,
  };
}

/**
 * The collector and a bare baseline fed the same sealed batches, warmed up, then at each of SENDERS concurrent senders;
 * `labels` names the rows: `{ collector, bare, goal, cpuNote }` (goal in events/s).
 */
export async function ingestSideBySide(server, bare, labels) {
  // A short warm-up of each, so neither is measured while its code is still being compiled.
  await drive(server, await makeBodies(server.url, 500, 'warm-app'), 10);
  await drive(bare, await makeBodies(server.url, 500, 'warm-bare'), 10);
  const rows = [];
  for (const senders of SENDERS) {
    const app = await drive(server, await makeBodies(server.url, RUN_BATCHES, `app-${senders}`), senders);
    const base = await drive(bare, await makeBodies(server.url, RUN_BATCHES, `bare-${senders}`), senders);
    const perCpuSecond = (run) => Math.round((BATCH * 1e6) / run.cpuUs);
    rows.push(
      {
        figure: `${labels.collector}, ${senders} senders`,
        value: app.eventsPerS,
        unit: 'events/s',
        goal: `≥ ${labels.goal.toLocaleString('en')}`,
        met: app.eventsPerS >= labels.goal ? 'yes' : 'NO',
      },
      { figure: `  ${labels.bare}, ${senders} senders`, value: base.eventsPerS, unit: 'events/s' },
      {
        figure: `  collector / bare, ${senders} senders`,
        value: Number((app.eventsPerS / base.eventsPerS).toFixed(2)),
        unit: '×',
      },
      {
        figure: `  server CPU per batch of ${BATCH}, collector | bare, ${senders} senders`,
        value: `${app.cpuUs} | ${base.cpuUs}`,
        unit: 'µs',
      },
      {
        figure: `  events per server CPU second${labels.cpuNote ?? ''}, collector | bare, ${senders} senders`,
        value: `${perCpuSecond(app)} | ${perCpuSecond(base)}`,
        unit: 'events/s',
      },
      {
        figure: `  latency p50 / p99, collector | bare, ${senders} senders`,
        value: `${app.p50} / ${app.p99} | ${base.p50} / ${base.p99}`,
        unit: 'ms',
      },
      {
        figure: `  failed answers, collector | bare, ${senders} senders`,
        value: `${app.failed} | ${base.failed}`,
        unit: 'count',
      },
    );
  }
  return rows;
}

/**
 * Collector ingest next to the bare baseline, at 10 and 100 concurrent senders; `siteDir` is the built site the server
 * serves.
 */
export async function collectorIngest(siteDir) {
  const secret = randomBytes(24).toString('hex');
  const server = await startServer({ SITE_DIR: siteDir, TRACKING_BUFFER_S: '1', TRACKING_SECRET: secret });
  const bareFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-bare-')), 'bare.db');
  const bare = await startBare('tracking-bare.mjs', bareFile, secret);
  try {
    return await ingestSideBySide(server, bare, {
      collector: 'collector ingest',
      bare: 'bare node:http + better-sqlite3 handler',
      goal: 50_000,
    });
  } finally {
    await bare.stop();
    await server.stop();
  }
}
