// Measures email login and POST /user/info throughput over loopback against the real app on a SQLite file; prints JSON
// rows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import autocannon from 'autocannon';
import { createApp } from '../server/app';
import { lazyServerKeys } from '../server/accounts';
import { issueLoginCode } from '../server/accounts/codes';
import { loadConfig } from '../server/config';
import { migrateToLatest, openDatabase } from '../server/db';
import { createLogger } from '../server/log';
import { createTaskSystem } from '../server/tasks';

const LOGINS = 2000;
const CONNECTIONS = 10;
const INFO_SECONDS = 5;

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-accounts-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  SITE_DIR: path.join(dataDir, 'no-site'),
  SECRET_KEY: 'bench-secret-bench-secret-bench-secret-01',
});
const database = await openDatabase(config.databaseUrl);
await migrateToLatest(database);
const log = createLogger('silent');
const app = createApp({
  config,
  database,
  log,
  mailer: { sendLoginCode: async () => {} },
  tasks: createTaskSystem({ config, database, log }),
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// Codes are issued up front (one per email, spread over IPs so the hourly caps do not apply to the bench itself).
const hashing = lazyServerKeys(config)().hashing;
const logins: string[] = [];
for (let i = 0; i < LOGINS; i += 1) {
  const email = `bench-${i}@example.com`;
  const { code, attemptId } = await issueLoginCode(database.db, hashing, { email, ip: `bench-${i}` });
  logins.push(new URLSearchParams({ email, code, attemptId }).toString());
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };
let next = 0;
const login = await autocannon({
  url: `${base}/user/email/login`,
  connections: CONNECTIONS,
  amount: LOGINS,
  requests: [{ method: 'POST', headers: form, setupRequest: (req) => ({ ...req, body: logins[next++ % LOGINS] }) }],
});

const infoCode = await issueLoginCode(database.db, hashing, { email: 'info-bench2@example.com', ip: 'bench-info' });
const infoLogin = new URLSearchParams({
  email: 'info-bench2@example.com',
  code: infoCode.code,
  attemptId: infoCode.attemptId,
}).toString();
const session = (await (
  await fetch(`${base}/user/email/login`, { method: 'POST', headers: form, body: infoLogin })
).json()) as { data: { token: string } };
const info = await autocannon({
  url: `${base}/user/info`,
  connections: CONNECTIONS,
  duration: INFO_SECONDS,
  method: 'POST',
  headers: { ...form, token: session.data.token },
});

const row = (name: string, r: autocannon.Result) => ({
  benchmark: name,
  'requests/s': Math.round(r.requests.average),
  'p50 ms': r.latency.p50,
  'p99 ms': r.latency.p99,
  requests: r.requests.total,
  'non-2xx': r.non2xx,
});
process.stdout.write(
  JSON.stringify([
    row(`POST /user/email/login (${LOGINS} first sign-ins)`, login),
    row('POST /user/info (session token)', info),
  ]),
);

server.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
