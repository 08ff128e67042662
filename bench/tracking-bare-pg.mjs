// Baseline for the collector ingest row on PostgreSQL: node:http + pg taking the same sealed track_info batches. Usage:
// node bench/tracking-bare-pg.mjs <database url> <port> <tracking secret>. No framework, no validation library, no
// group commit: it checks the token and the sign, decrypts, parses and inserts each batch with one unnest statement.
import pg from 'pg';
import { serveTrackInfo } from './tracking-bare-common.mjs';

const [url, port, secret] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 10 });
// The table and index of migration 002 (one unpartitioned table), for a database the real server has not migrated.
await pool.query(`create table if not exists tracking_events (entry_id text primary key, app_key text not null, produce_id text not null,
  device_id text not null, cold_start_id text not null, seq_id integer not null, uid text not null, time bigint not null,
  oid text not null, action integer not null, foid text not null, ffid text not null, logmap text not null,
  queue_id text not null, received_at bigint not null);
  create index if not exists tracking_events_received_idx on tracking_events (received_at, entry_id)`);
const INSERT = `insert into tracking_events (entry_id, app_key, produce_id, device_id, cold_start_id, seq_id, uid, time, oid, action, foid, ffid, logmap, queue_id, received_at)
  select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int4[], $7::text[], $8::int8[], $9::text[], $10::int4[],
  $11::text[], $12::text[], $13::text[], $14::text[], $15::int8[]) on conflict (entry_id) do nothing`;

async function storeBatch(entries, claims, queueId, now) {
  const column = (pick) => entries.map(pick);
  const same = (value) => entries.map(() => value);
  const result = await pool.query({
    name: 'insert-events',
    text: INSERT,
    values: [
      column((e) => e.entryId),
      same(claims.k),
      same(claims.p),
      same(claims.d),
      column((e) => e.coldStartId),
      column((e) => e.seqId),
      column((e) => e.uid),
      column((e) => e.time),
      column((e) => e.oid),
      column((e) => e.action),
      column((e) => e.foid),
      column((e) => e.ffid),
      column((e) => JSON.stringify(e.logmap)),
      same(queueId),
      same(now),
    ],
  });
  return result.rowCount;
}

serveTrackInfo(port, secret, storeBatch);
