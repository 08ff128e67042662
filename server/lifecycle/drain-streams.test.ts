// SIGTERM with live status streams open on the real server: the streams end when the port closes, and the process exits
// without waiting out DRAIN_TIMEOUT_S.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db';
import { LIVE_STATUS } from '../../src/lib/product-rules';
import { collect } from '../test-support/sse.fixtures';
import { startServer, type ServerProcess } from '../test-support/server-process';
import { createUser } from '../test-support/tasks';

const dir = mkdtempSync(path.join(tmpdir(), 'drain-streams-'));
const SECRET_KEY = 'drain-streams-secret-drain-streams-secret';
let server: ServerProcess | undefined;

afterAll(async () => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

it('ends every open status stream on SIGTERM and exits 0 well before the drain deadline', async () => {
  const env = { DATA_DIR: dir, DATABASE_URL: `sqlite:${path.join(dir, 'app.db')}`, SECRET_KEY, DRAIN_TIMEOUT_S: '120' };
  const database = await openDatabase(env.DATABASE_URL);
  await migrateToLatest(database);
  const user = await createUser({ database, config: loadConfig({ ...env, LOG_LEVEL: 'silent' }) }, 10);
  await database.close();
  server = await startServer(env);
  const streams = await Promise.all([
    fetch(`${server.url}${LIVE_STATUS.publicPath}`, { headers: { authorization: `Bearer ${user.apiKey}` } }).then(
      collect,
    ),
    fetch(`${server.url}${LIVE_STATUS.playgroundPath}`, { headers: { token: user.token } }).then(collect),
  ]);
  expect(streams.map((s) => s.status)).toEqual([200, 200]);
  // Without the drain ending them, the open streams would hold the process until DRAIN_TIMEOUT_S (120 s, beyond this
  // test's limit).
  expect(await server.stop('SIGTERM')).toBe(0);
  await Promise.all(streams.map((s) => s.ended));
}, 90_000);
