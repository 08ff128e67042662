// The readiness checks behind /readyz: the database, the job queue and, when configured, Redis and the S3 bucket, each
// bounded in time.
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import type { Config } from '../config';
import type { AppDatabase } from '../db';
import type { RateLimitStores } from '../http/redis-rate-limit';
import { s3MediaStore } from '../media';
import type { TaskQueue } from '../tasks';
import { READINESS } from '../../src/lib/product-rules';

export interface CheckResult {
  up: boolean;
  ms: number;
  /** Why it is down (a message, never a secret); absent when up. */
  error?: string;
}

export type Check = () => Promise<void>;

export interface ReadinessDeps {
  config: Pick<Config, 's3' | 'redis'>;
  database: AppDatabase;
  queue: Pick<TaskQueue, 'ready'>;
  rateLimits?: Pick<RateLimitStores, 'ping'>;
}

/** Every dependency this process needs to serve, by name; Redis and S3 only when configured. */
export function readinessChecks(d: ReadinessDeps): Record<string, Check> {
  const checks: Record<string, Check> = {
    database: async () => {
      await sql`select 1`.execute(d.database.db);
    },
    // The in-process queue is the tasks table itself; a job queue (pg-boss) checks its own connection.
    queue: async () => {
      await (d.queue.ready ? d.queue.ready() : sql`select 1`.execute(d.database.db));
    },
  };
  const ping = d.rateLimits?.ping;
  if (d.config.redis && ping) checks.redis = () => ping();
  const s3 = d.config.s3;
  if (s3) {
    const { client } = s3MediaStore({ s3 });
    checks.s3 = async () => {
      await client.send(new HeadBucketCommand({ Bucket: s3.bucket }), {
        abortSignal: AbortSignal.timeout(READINESS.checkTimeoutMs),
      });
    };
  }
  return checks;
}

async function timed(check: Check): Promise<CheckResult> {
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${READINESS.checkTimeoutMs} ms`)),
      READINESS.checkTimeoutMs,
    );
  });
  try {
    await Promise.race([check(), deadline]);
    return { up: true, ms: Math.round(performance.now() - start) };
  } catch (error) {
    const e = error as { name?: string; message?: string };
    return { up: false, ms: Math.round(performance.now() - start), error: e.message || e.name || String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs the checks side by side: the answer takes as long as the slowest, at most READINESS.checkTimeoutMs. */
export async function runChecks(checks: Record<string, Check>): Promise<Record<string, CheckResult>> {
  const names = Object.keys(checks);
  const results = await Promise.all(names.map((name) => timed(checks[name]!)));
  return Object.fromEntries(names.map((name, i) => [name, results[i]!]));
}
