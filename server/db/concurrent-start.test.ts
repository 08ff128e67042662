// Three server processes starting together on one empty PostgreSQL database: each migrates (and with QUEUE=pg-boss
// starts the job queue) without error, and the schema ends up whole and once.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { CHORES, TASK_QUEUE } from '../../src/lib/product-rules';
import { postgresSkipReason } from '../test-support/instances';
import { TASKS_TEST_SECRET } from '../test-support/tasks';
import { openDatabase } from './index.ts';
import { ALL_VERSIONS, EXPECTED_TABLES, tableNames, versionRows } from './test-support/targets.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const skipReason = await postgresSkipReason(adminUrl);
if (skipReason) console.warn(`concurrent start on PostgreSQL skipped: ${skipReason}`);

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(children.splice(0).map(stopChild));
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** A new, empty database on the TEST_DATABASE_URL server, dropped (connections and all) after the test. */
async function emptyDatabase(): Promise<string> {
  const name = `start_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * One server process as `npm start` would begin one: open the database, migrate, start the task system
 * (server/test-support/task-worker.ts); resolves once it says ready, rejects with its output if it exits first.
 */
function startProcess(env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('server/test-support/task-worker.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`a starting process exited with ${code}: ${output}`)));
  });
}

/** Starts three processes at the same moment on `url`; answers once all three are ready. */
async function startThree(url: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'concurrent-start-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const common = {
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    SECRET_KEY: TASKS_TEST_SECRET,
    PUBLIC_URL: 'http://localhost:8787',
    ...env,
  };
  await Promise.all([1, 2, 3].map(() => startProcess(common)));
}

/** What the three left behind: our tables and schema versions in the public schema. */
async function ourSchema(url: string) {
  const database = await openDatabase(url);
  try {
    return { tables: await tableNames(database), versions: await versionRows(database) };
  } finally {
    await database.close();
  }
}

describe.skipIf(skipReason !== null)(
  `three instances starting together on an empty PostgreSQL database (skipped when: ${skipReason ?? 'never'})`,
  () => {
    it('each migrates without error; every table exists and every schema version is recorded once', async () => {
      const url = await emptyDatabase();
      await startThree(url, { QUEUE: 'in-process', ROLE: 'all' });
      const { tables, versions } = await ourSchema(url);
      expect(tables).toEqual(EXPECTED_TABLES);
      expect(versions).toEqual(ALL_VERSIONS);
    }, 90_000);

    it('with QUEUE=pg-boss each also starts the job queue: its schema is installed once, with each queue once', async () => {
      const url = await emptyDatabase();
      await startThree(url, { QUEUE: 'pg-boss', ROLE: 'worker', QUEUE_CHECK_S: '1', QUEUE_LEASE_S: '10' });
      const { tables, versions } = await ourSchema(url);
      expect(tables).toEqual(EXPECTED_TABLES);
      expect(versions).toEqual(ALL_VERSIONS);
      const database = await openDatabase(url);
      try {
        const boss = sql.id(TASK_QUEUE.schema);
        const bossVersions = await sql<{ version: number }>`select version from ${boss}.version`.execute(database.db);
        expect(bossVersions.rows).toHaveLength(1);
        const queues = await sql<{ name: string }>`select name from ${boss}.queue order by name`.execute(database.db);
        // Ours: the tasks, their dead letters and the chores (server/tasks/chores.ts); pg-boss keeps its own beside
        // them.
        const ours = queues.rows.map((r) => r.name).filter((name) => !name.startsWith('__pgboss__'));
        expect(ours).toEqual([TASK_QUEUE.jobs, TASK_QUEUE.exhausted, CHORES.mediaQueue, CHORES.trackingQueue].sort());
      } finally {
        await database.close();
      }
    }, 90_000);
  },
);
