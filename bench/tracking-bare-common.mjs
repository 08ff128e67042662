// The bare collector baselines' shared part: node:http, the token and sign checks and the batch decryption of
// server/tracking (no framework, no validation library); each baseline brings only its own insert.
import { createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

/** The token and key derivations of server/tracking/token.ts. */
function checker(secret) {
  const mac = (purpose, text) => createHmac('sha256', secret).update(`${purpose}\n${text}`).digest();
  const claimsOf = (token, now) => {
    const [payload, tag] = token.split('.');
    const given = Buffer.from(tag ?? '', 'base64url');
    const expected = mac('token', payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return claims.exp > now ? claims : null;
  };
  return { mac, claimsOf };
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Serves POST /spider/api/v1/report/track_info on 127.0.0.1:port: checks the token and the sign, decrypts the batch
 * and hands its entries to `store(entries, claims, queueId, now)` (a count, or a promise of one).
 */
export function serveTrackInfo(port, secret, store) {
  const { mac, claimsOf } = checker(secret);
  async function trackInfo(text) {
    const now = Date.now();
    const body = JSON.parse(text);
    const claims = claimsOf(body.token, now);
    if (!claims || body.produceId !== claims.p) return [401, { code: 40002 }];
    const ak = Buffer.from(mac('ak', body.token).toString('hex'), 'hex');
    const signed = [body.token, body.produceId, body.queueId, String(body.sendTime), String(body.batchCount)];
    const sign = createHmac('sha256', ak)
      .update([...signed, body.msgEncrypt].join('\n'))
      .digest('hex');
    if (sign !== String(body.sign).toLowerCase()) return [403, { code: 40003 }];
    const raw = Buffer.from(body.msgEncrypt, 'base64');
    const decipher = createDecipheriv('aes-256-cbc', ak, raw.subarray(0, 16));
    const entries = JSON.parse(Buffer.concat([decipher.update(raw.subarray(16)), decipher.final()]).toString('utf8'));
    const stored = await store(entries, claims, body.queueId, now);
    return [200, { code: 0, msg: 'ok', data: { stored, duplicates: entries.length - stored } }];
  }
  http
    .createServer((req, res) => {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/spider/api/v1/report/track_info')
          return send(res, 404, { code: 404 });
        trackInfo(Buffer.concat(chunks).toString('utf8')).then(
          ([status, body]) => send(res, status, body),
          () => send(res, 400, { code: 40000 }),
        );
      });
    })
    .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
}
