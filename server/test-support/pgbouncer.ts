// Test-only: Debian's PgBouncer as a child process in transaction mode, on a free port in front of one PostgreSQL
// database.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';
import { skipUnlessRequired } from './required-services';

const CANDIDATES = [process.env.PGBOUNCER_PATH, '/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];

/** Where the pgbouncer binary is, or null. */
export function pgbouncerBinary(): string | null {
  return CANDIDATES.find((file): file is string => !!file && existsSync(file)) ?? null;
}

/**
 * Why the PgBouncer test cannot run here, or null; with REQUIRE_TEST_SERVICES a missing binary throws (CI installs it).
 */
export function pgbouncerSkipReason(): string | null {
  return skipUnlessRequired(
    pgbouncerBinary() ? null : 'pgbouncer is not installed (apt-get install pgbouncer, or set PGBOUNCER_PATH)',
  );
}

export interface PgBouncer {
  /** The database through PgBouncer: same user and database name as the direct URL. */
  url: string;
  /** PgBouncer's admin console (SHOW POOLS, SHOW CLIENTS), simple queries only. */
  adminUrl: string;
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Starts PgBouncer in transaction mode in front of `directUrl`'s database (trust auth, its user). `poolSize` is the
 * most server connections it opens to that database, however many clients connect to it.
 */
export async function startPgBouncer(directUrl: string, poolSize: number): Promise<PgBouncer> {
  const binary = pgbouncerBinary();
  if (!binary) throw new Error('pgbouncer is not installed');
  const direct = new URL(directUrl);
  const user = decodeURIComponent(direct.username) || 'postgres';
  const database = direct.pathname.slice(1);
  const dir = mkdtempSync(path.join(tmpdir(), 'pgbouncer-'));
  const port = await freePort();
  writeFileSync(path.join(dir, 'users.txt'), `"${user}" ""\n`);
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${database} = host=${direct.hostname} port=${direct.port || 5432} dbname=${database} user=${user}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      // No Unix socket: several test runs on one machine would fight over its path.
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      `admin_users = ${user}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 500',
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: it reads its files, then drops to the database's system user.
  const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const child: ChildProcess = spawn(binary, [...asRoot, path.join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const url = `postgres://${user}@127.0.0.1:${port}/${database}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 50; i++) {
    if (child.exitCode !== null) break;
    if (await answers(url)) return { url, adminUrl: `postgres://${user}@127.0.0.1:${port}/pgbouncer`, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`pgbouncer did not start: ${output.trim() || 'no output'}`);
}
