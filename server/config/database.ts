// Environment variables of the database connections (DATABASE_POOL_MAX, DATABASE_DIRECT_URL; docs/scaling.md
// "Connections").
import { z } from 'zod';
import { DATABASE_POOL } from '../../src/lib/product-rules';
import type { Role } from './queue';

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

export const databaseEnvShape = {
  /** Unset: DATABASE_POOL.maxByRole for the process's role. */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).optional(),
  /** A session-mode connection to the same database for LISTEN, when DATABASE_URL goes through a transaction pooler. */
  DATABASE_DIRECT_URL: z
    .string()
    .refine(
      (v) => POSTGRES_URL.test(v.trim()),
      'must be a postgres:// URL of the same database, reached without a transaction pooler',
    )
    .optional(),
};

export interface DatabaseConfig {
  /** Most connections of the application's pool, and of pg-boss's pool in a process that runs jobs. */
  poolMax: number;
  /** pg-boss's pool: an api process only sends jobs inside the application's transactions, so it needs few. */
  queuePoolMax: number;
  /** Where LISTEN connections go (a session each): DATABASE_DIRECT_URL, or DATABASE_URL when that is unset. */
  listenUrl: string;
}

type DatabaseEnv = z.infer<z.ZodObject<typeof databaseEnvShape>>;

/** The connection settings, or a message when DATABASE_DIRECT_URL is given without PostgreSQL. */
export function databaseConfig(e: DatabaseEnv, databaseUrl: string, role: Role): DatabaseConfig | string {
  if (e.DATABASE_DIRECT_URL && !POSTGRES_URL.test(databaseUrl.trim())) {
    return 'DATABASE_DIRECT_URL: only used with a PostgreSQL DATABASE_URL (postgres://…)';
  }
  const poolMax = e.DATABASE_POOL_MAX ?? DATABASE_POOL.maxByRole[role];
  return {
    poolMax,
    queuePoolMax: role === 'api' ? Math.min(poolMax, DATABASE_POOL.queueSenderMax) : poolMax,
    listenUrl: e.DATABASE_DIRECT_URL?.trim() ?? databaseUrl,
  };
}
