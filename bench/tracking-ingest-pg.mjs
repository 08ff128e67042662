// Collector ingest on PostgreSQL: the real server on a fresh database (tracking_events partitioned by day, unnest
// inserts) beside a bare node:http + pg handler (bench/tracking-bare-pg.mjs) on another, the same sealed batches over
// loopback.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { freshPostgresDatabase } from '../server/db/test-support/engines.ts';
import { startServer } from './server.mjs';
import { ingestSideBySide, startBare } from './tracking-ingest.mjs';

/** The goal for the collector on PostgreSQL on this machine. */
const GOAL_EVENTS_PER_S = 20_000;
const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

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

/** Collector ingest on PostgreSQL next to the bare pg baseline, at 10 and 100 concurrent senders. */
export async function collectorIngestPostgres(siteDir) {
  const secret = randomBytes(24).toString('hex');
  const appDb = await freshPostgresDatabase(adminUrl, 'bench_trk_app');
  const bareDb = await freshPostgresDatabase(adminUrl, 'bench_trk_bare');
  const rows = [];
  let server;
  let bare;
  try {
    server = await startServer(
      { SITE_DIR: siteDir, TRACKING_BUFFER_S: '1', TRACKING_SECRET: secret, DATABASE_URL: appDb.url },
      { startTimeoutS: 120 },
    );
    bare = await startBare('tracking-bare-pg.mjs', bareDb.url, secret);
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
