// Baseline for the collector ingest row on PostgreSQL: node:http + pg taking the same sealed track_info batches. Usage:
// node bench/tracking-bare-pg.mjs <database url> <port> <tracking secret>. No framework, no validation library, no
// group commit: it checks the token and the sign, decrypts, parses and inserts each batch with one unnest statement.
import { createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

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

// The token and key derivations of server/tracking/token.ts.
const mac = (purpose, text) => createHmac('sha256', secret).update(`${purpose}\n${text}`).digest();
function claimsOf(token, now) {
  const [payload, tag] = token.split('.');
  const given = Buffer.from(tag ?? '', 'base64url');
  const expected = mac('token', payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  return claims.exp > now ? claims : null;
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function trackInfo(text) {
  const now = Date.now();
  const body = JSON.parse(text);
  const claims = claimsOf(body.token, now);
  if (!claims || body.produceId !== claims.p) return [401, { code: 40002 }];
  const ak = Buffer.from(mac('ak', body.token).toString('hex'), 'hex');
  const signed = [
    body.token,
    body.produceId,
    body.queueId,
    String(body.sendTime),
    String(body.batchCount),
    body.msgEncrypt,
  ].join('\n');
  if (createHmac('sha256', ak).update(signed).digest('hex') !== String(body.sign).toLowerCase())
    return [403, { code: 40003 }];
  const raw = Buffer.from(body.msgEncrypt, 'base64');
  const decipher = createDecipheriv('aes-256-cbc', ak, raw.subarray(0, 16));
  const entries = JSON.parse(Buffer.concat([decipher.update(raw.subarray(16)), decipher.final()]).toString('utf8'));
  const stored = await storeBatch(entries, claims, body.queueId, now);
  return [200, { code: 0, msg: 'ok', data: { stored, duplicates: entries.length - stored } }];
}

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/spider/api/v1/report/track_info') return send(res, 404, { code: 404 });
      trackInfo(Buffer.concat(chunks).toString('utf8')).then(
        ([status, body]) => send(res, status, body),
        () => send(res, 400, { code: 40000 }),
      );
    });
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
