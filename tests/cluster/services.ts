// Where the cluster tests and the benches find PostgreSQL and Redis, whether each answers, and the removal of a run's
// Redis keys.
import { Redis } from 'ioredis';
import pg from 'pg';

export const PG_ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

const doesNotAnswer = (what: string, url: string, error: unknown) =>
  `${what} at ${new URL(url).host} does not answer (${error instanceof Error ? error.message : String(error)})`;

/** Null when PostgreSQL answers at PG_ADMIN_URL, else why not. */
export async function postgresProblem(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return null;
  } catch (error) {
    return doesNotAnswer('PostgreSQL', PG_ADMIN_URL, error);
  }
}

/** Null when Redis answers at REDIS_URL, else why not. */
export async function redisProblem(): Promise<string | null> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (error) {
    return doesNotAnswer('Redis', REDIS_URL, error);
  } finally {
    redis.disconnect();
  }
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
