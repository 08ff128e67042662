// Baseline for the collector ingest row: node:http + better-sqlite3 taking the same sealed track_info batches.
// Usage: node bench/tracking-bare.mjs <sqlite file> <port> <tracking secret>. No framework, no validation library:
// it checks the token and the sign, decrypts, parses and inserts (one transaction per batch), what the machine can do.
import Database from 'better-sqlite3';
import { serveTrackInfo } from './tracking-bare-common.mjs';

const [file, port, secret] = process.argv.slice(2);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');
// The table and index of migration 002, for a file the real server has not migrated.
db.exec(`create table if not exists tracking_events (entry_id text primary key, app_key text not null, produce_id text not null,
  device_id text not null, cold_start_id text not null, seq_id integer not null, uid text not null, time bigint not null,
  oid text not null, action integer not null, foid text not null, ffid text not null, logmap text not null,
  queue_id text not null, received_at bigint not null);
  create index if not exists tracking_events_received_idx on tracking_events (received_at, entry_id)`);
const insert = db.prepare(
  'insert into tracking_events (entry_id, app_key, produce_id, device_id, cold_start_id, seq_id, uid, time, oid, action, foid, ffid, logmap, queue_id, received_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (entry_id) do nothing',
);
const storeBatch = db.transaction((entries, claims, queueId, now) => {
  let stored = 0;
  for (const e of entries) {
    stored += insert.run(
      e.entryId,
      claims.k,
      claims.p,
      claims.d,
      e.coldStartId,
      e.seqId,
      e.uid,
      e.time,
      e.oid,
      e.action,
      e.foid,
      e.ffid,
      JSON.stringify(e.logmap),
      queueId,
      now,
    ).changes;
  }
  return stored;
});

serveTrackInfo(port, secret, storeBatch);
