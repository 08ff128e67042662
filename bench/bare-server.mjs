// Baseline for bench/api-throughput.mjs: node:http + better-sqlite3 answering the three hot endpoints with the same
// queries on the same file. Usage: node bench/bare-server.mjs <sqlite file> <port>. No framework, no middleware: what
// the machine can do.
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import Database from 'better-sqlite3';

const [file, port] = process.argv.slice(2);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');

// The statements the real server runs (server/accounts/sessions.ts, api-keys.ts, server/tasks/service.ts, views.ts).
const sessionUser = db.prepare(
  'select * from "users" where "id" = (select "user_id" from "sessions" where "token_hash" = ? and "expires_at" > ? and "revoked_at" is null)',
);
const earlierSessions = db.prepare('select "token_hash" from "sessions" where "user_id" = ? limit ?');
const keyUser = db.prepare(
  'select *, (select "id" from "api_keys" where "key_hash" = ?) as "api_key_id" from "users" where "id" = (select "user_id" from "api_keys" where "key_hash" = ?)',
);
const taskById = db.prepare('select * from "tasks" where "id" = ?');
const mediaOf = db.prepare('select * from "media" where "task_id" in (?) order by "created_at"');

const sha256 = (value) => createHash('sha256').update(value).digest('hex');
const signingKey = Buffer.alloc(32, 7);
const signedUrl = (m, now) => {
  const exp = Math.min(now + 3600_000, m.expires_at);
  return `http://127.0.0.1:${port}/media/${m.id}.wav?exp=${exp}&sig=${createHmac('sha256', signingKey).update(`${m.id}.${exp}`).digest('base64url')}`;
};

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function parse(req, text) {
  if (text === '') return {};
  return (req.headers['content-type'] ?? '').startsWith('application/json')
    ? JSON.parse(text)
    : Object.fromEntries(new URLSearchParams(text));
}

function task(user, taskId, now) {
  const row = taskById.get(taskId);
  if (!row || row.user_id !== user.id) return null;
  const media = mediaOf.all(taskId).filter(() => row.outputs_expired_at === null);
  return {
    task: { ...row, input: JSON.parse(row.input) },
    outputs: media.map((m) => ({ kind: m.kind, url: signedUrl(m, now), mime: m.mime, size: m.size })),
  };
}

const server = http.createServer((req, res) => {
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (text += chunk));
  req.on('end', () => {
    const now = Date.now();
    const body = parse(req, text);
    if (req.url === '/api/getAsyncResult') {
      const key = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
      const hash = key ? sha256(key) : undefined;
      const user = hash ? keyUser.get(hash, hash) : undefined;
      if (!user) return send(res, 401, { code: 40001, message: 'Invalid API key', data: null });
      const found = task(user, body.taskId, now);
      return found
        ? send(res, 200, { code: 0, message: 'success', data: found })
        : send(res, 404, { code: 404, message: 'Task not found', data: null });
    }
    const token = req.headers.token;
    const user = token ? sessionUser.get(sha256(token), now) : undefined;
    if (!user) return send(res, 401, { code: 40001, msg: 'Not logged in', data: null });
    if (req.url === '/user/info') {
      const isOld = earlierSessions.all(user.id, 2).length > 1;
      return send(res, 200, {
        code: 0,
        msg: 'Successfully',
        data: { userId: user.id, userEmail: user.email, userName: user.name, userPoints: user.credits, token, isOld },
      });
    }
    if (req.url === '/api-playground/video_tools/v1/poll') {
      const found = task(user, body.taskId, now);
      return found
        ? send(res, 200, { code: 0, msg: 'Successfully', data: found })
        : send(res, 404, { code: 404, msg: 'Task not found', data: null });
    }
    send(res, 404, { code: 404, msg: 'Not found', data: null });
  });
});
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
