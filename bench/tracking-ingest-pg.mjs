// Collector ingest on PostgreSQL: the real server on a fresh database (tracking_events partitioned by day, unnest
// inserts) beside a bare node:http + pg handler (bench/tracking-bare-pg.mjs) on another, the same sealed batches over
// loopback.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startServer } from './server.mjs';
import { ingestSideBySide } from './tracking-ingest.mjs';

/** The goal for the collector on PostgreSQL on this machine. */
const GOAL_EVENTS_PER_S = 20_000;
const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** A new database on the admin URL's server; drop() removes it. */
async function freshDatabase(prefix) {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = async (statement) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** Stored rows and partitions of the collector's database: proof the events went where the row says. */
async function tableFacts(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = Number((await client.query('select count(*) as n from tracking_events')).rows[0].n);
    const parts = Number(
      (await client.query(`select count(*) as n from pg_inherits where inhparent = 'tracking_events'::regclass`))
        .rows[0].n,
    );
    return { rows, parts };
  } finally {
    await client.end();
  }
}

async function startBare(url, secret) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 'tracking-bare-pg.mjs'), url, String(port), secret],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
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

/** Collector ingest on PostgreSQL next to the bare pg baseline, at 10 and 100 concurrent senders. */
export async function collectorIngestPostgres(siteDir) {
  const secret = randomBytes(24).toString('hex');
  const appDb = await freshDatabase('bench_trk_app');
  const bareDb = await freshDatabase('bench_trk_bare');
  const rows = [];
  let server;
  let bare;
  try {
    server = await startServer(
      { SITE_DIR: siteDir, TRACKING_BUFFER_S: '1', TRACKING_SECRET: secret, DATABASE_URL: appDb.url },
      { startTimeoutS: 120 },
    );
    bare = await startBare(bareDb.url, secret);
    rows.push(
      ...(await ingestSideBySide(server, bare, {
        collector: 'collector ingest on PostgreSQL',
        bare: 'bare node:http + pg handler (unnest per batch)',
        goal: GOAL_EVENTS_PER_S,
        cpuNote: ' (Node only, PostgreSQL not counted)',
      })),
    );
    // The machine is shared: its load says how far the figures above are from an idle one.
    rows.push({
      figure: '  machine load average (1 min) at the end | cores',
      value: `${os.loadavg()[0].toFixed(1)} | ${os.cpus().length}`,
      unit: '',
    });
    const facts = await tableFacts(appDb.url);
    rows.push({
      figure: '  events stored by the collector (warm-up included) | partitions of tracking_events',
      value: `${facts.rows} | ${facts.parts}`,
      unit: 'count',
    });
    return rows;
  } finally {
    await bare?.stop();
    await server?.stop();
    await appDb.drop();
    await bareDb.drop();
  }
}
