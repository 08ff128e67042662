// Helpers of the cluster test: which services answer, a fresh database, real server processes, a webhook listener.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { expect } from 'vitest';
import type { Schema, TaskRow } from '../../server/db';
import { LEDGER_REASONS } from '../../server/tasks';
import { freePort } from '../../server/test-support/free-port';
import { skipUnlessRequired } from '../../server/test-support/required-services';

export const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Null when PostgreSQL and Redis both answer, else what is missing. */
export async function missingServices(): Promise<string | null> {
  const problems: string[] = [];
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
  } catch (error) {
    problems.push(
      `PostgreSQL at ${new URL(PG_ADMIN_URL).host} does not answer (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    problems.push(
      `Redis at ${new URL(REDIS_URL).host} does not answer (${error instanceof Error ? error.message : String(error)})`,
    );
  } finally {
    redis.disconnect();
  }
  return skipUnlessRequired(problems.length ? problems.join('; ') : null);
}

/** A fresh PostgreSQL database for one run; drop() removes it even while connections remain. */
export async function freshDatabase() {
  const name = `cluster_${randomBytes(5).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** Deletes every Redis key under the run's prefix. */
export async function clearRedisPrefix(prefix: string) {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export interface Instance {
  role: 'api' | 'worker';
  url: string;
  dataDir: string;
  child: ChildProcess;
  exited: Promise<void>;
}

const MAIN = path.resolve('server/main.ts');

/**
 * Starts `server/main.ts` as a real process of `role`; resolves once it prints that it is running. Node loads tsx
 * itself: the tsx command would fork the server, and a SIGKILL to it would leave the server running.
 */
export async function startInstance(
  role: 'api' | 'worker',
  env: Record<string, string>,
  all: Instance[],
): Promise<Instance> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `cluster-${role}-`));
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      ...env,
      ROLE: role,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const instance: Instance = { role, url, dataDir, child, exited };
  all.push(instance);
  // The last of what it printed (both streams), for the error when it does not start.
  let stderr = '';
  const keep = (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  };
  child.stderr!.on('data', keep);
  child.stdout!.on('data', keep);
  await new Promise<void>((resolve, reject) => {
    // Generous: tsx compiles the server at each start, and the machine may be busy with other tests.
    const timer = setTimeout(() => reject(new Error(`${role} on ${url} did not start: ${stderr}`)), 150_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('is running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${role} exited early with ${code}: ${stderr}`));
    });
  });
  return instance;
}

/** SIGKILL to every child still alive, and wait for them to go. */
export async function killAll(all: Instance[]) {
  for (const i of all) if (i.child.exitCode === null && i.child.signalCode === null) i.child.kill('SIGKILL');
  await Promise.all(all.map((i) => i.exited));
}

/** POST to the public API with a Bearer key; answers the HTTP status and the JSON envelope. */
export async function call(base: string, apiKey: string, route: string, body: unknown = {}) {
  const res = await fetch(`${base}/api${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; message: string; data: Record<string, unknown> | null };
  return { status: res.status, ...json };
}

export interface Delivery {
  id: string;
  body: { type: string; data: { task: { taskId: string } } };
}

/** A webhook receiver that fails the first delivery of each event (500) and accepts the rest, recording all. */
export async function webhookListener(): Promise<{ url: string; deliveries: Delivery[]; server: Server }> {
  const deliveries: Delivery[] = [];
  const seen = new Set<string>();
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      deliveries.push({ id, body: JSON.parse(raw) as Delivery['body'] });
      res.statusCode = seen.has(id) ? 200 : 500;
      seen.add(id);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, deliveries, server };
}

/** Polls `check` until it holds; on timeout the error names `what` and, when given, the state `describe` reports. */
export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
  describe?: () => Promise<string>,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`${what} did not happen within ${timeoutMs} ms${describe ? `: ${await describe()}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Each task moved credits exactly once: one hold; a succeeded one settled at most once and never refunded (its ledger
 * sums to minus its charge), any other refunded once and never settled (its ledger sums to 0).
 */
export async function expectSettledOnce(db: Kysely<Schema>, tasks: TaskRow[]) {
  for (const task of tasks) {
    const ledger = await db
      .selectFrom('credit_ledger')
      .select(['reason', 'delta'])
      .where('reference', '=', task.id)
      .execute();
    const reasons = ledger.map((r) => r.reason);
    expect(reasons.filter((r) => r === LEDGER_REASONS.hold)).toHaveLength(1);
    if (task.status === 'succeeded') {
      expect(reasons.filter((r) => r === LEDGER_REASONS.settle).length).toBeLessThanOrEqual(1);
      expect(reasons).not.toContain(LEDGER_REASONS.refund);
      expect(ledger.reduce((n, r) => n + r.delta, 0)).toBe(-task.credits_charged!);
    } else {
      expect(reasons.filter((r) => r === LEDGER_REASONS.refund)).toHaveLength(1);
      expect(reasons).not.toContain(LEDGER_REASONS.settle);
      expect(ledger.reduce((n, r) => n + r.delta, 0)).toBe(0);
    }
  }
}
