// Baseline for the collector ingest row: node:http + better-sqlite3 taking the same sealed track_info batches.
// Usage: node bench/tracking-bare.mjs <sqlite file> <port> <tracking secret>. No framework, no validation library:
// it checks the token and the sign, decrypts, parses and inserts (one transaction per batch), what the machine can do.
import { createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import Database from 'better-sqlite3';

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

function trackInfo(text) {
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
  const stored = storeBatch(entries, claims, body.queueId, now);
  return [200, { code: 0, msg: 'ok', data: { stored, duplicates: entries.length - stored } }];
}

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      try {
        if (req.method !== 'POST' || req.url !== '/spider/api/v1/report/track_info')
          return send(res, 404, { code: 404 });
        const [status, body] = trackInfo(Buffer.concat(chunks).toString('utf8'));
        send(res, status, body);
      } catch {
        send(res, 400, { code: 40000 });
      }
    });
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
