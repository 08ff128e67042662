// A cluster of the built server for specs that need several instances: a fresh PostgreSQL database per run, and api
// and worker processes of dist-server/main.mjs on it (pg-boss), each on a free port beside the run's main server.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../../server/test-support/free-port';
import { skipUnlessRequired } from '../../../server/test-support/required-services';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const PG_ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
/** Settings of this machine's environment a cluster instance must not take: it gets its own. */
const NOT_INHERITED = /^(DATABASE_|REDIS_|S3_|STRIPE_|GOOGLE_|GITHUB_|QUEUE|ROLE$|PORT$|DATA_DIR$|PUBLIC_URL$)/;

export interface ClusterServer {
  role: 'api' | 'worker';
  /** http://localhost:<port> */
  url: string;
  close(): Promise<void>;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Null when PostgreSQL answers, else why not (CI, with REQUIRE_TEST_SERVICES, throws instead of skipping). */
export async function postgresMissing(): Promise<string | null> {
  try {
    await admin('select 1');
    return null;
  } catch (error) {
    return skipUnlessRequired(
      `PostgreSQL at ${new URL(PG_ADMIN_URL).host} does not answer (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/** A fresh database for one run of a spec; drop() removes it even while connections remain. */
export async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `e2e_cluster_${randomBytes(5).toString('hex')}`;
  await admin(`create database ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/**
 * Starts the built server as `role` with the cluster's `env` (database, queue, secret) on a free port and waits for
 * /healthz; throws with the last of its output when it exits or does not answer in 90 s.
 */
export async function startClusterServer(role: 'api' | 'worker', env: Record<string, string>): Promise<ClusterServer> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `dreamapi-e2e-${role}-`));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !NOT_INHERITED.test(name)));
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'dist-server/main.mjs')], {
    cwd: ROOT,
    env: {
      ...inherited,
      SITE_DIR: process.env.SITE_DIR || path.join(ROOT, 'dist'),
      LOG_LEVEL: 'warn',
      ...env,
      ROLE: role,
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the ${role} instance exited with ${child.exitCode}: ${output}`);
    const up = await fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    // Ours only if it is still running: another process on the port would answer too.
    if (up && child.exitCode === null) return { role, url, close };
    if (Date.now() > deadline) {
      await close();
      throw new Error(`the ${role} instance did not answer /healthz in 90 s: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
